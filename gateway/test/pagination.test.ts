import { describe, expect, it } from '@jest/globals';
import type { Request, Response } from 'express';
import { readPage, setPagingHeaders } from '../src/http/pagination.js';

const settings = { DEFAULT_PAGING_NUM: 30, MAX_RESPONSE_ITEMS: 50 };
const req = (url: string) => ({ originalUrl: url, query: Object.fromEntries(new URL(url, 'http://x').searchParams) }) as unknown as Request;

function headersFor(url: string, total: number) {
  const headers: Record<string, string> = {};
  const res = { setHeader: (k: string, v: string) => (headers[k] = v) } as unknown as Response;
  setPagingHeaders(req(url), res, readPage(req(url), settings), total, 'http://localhost:3000/');
  return headers;
}

describe('pagination', () => {
  it('defaults to page 1 of DEFAULT_PAGING_NUM items', () => {
    expect(readPage(req('/api/v1/users/search'), settings)).toEqual({ page: 1, limit: 30 });
  });

  it('caps the page size at MAX_RESPONSE_ITEMS', () => {
    expect(readPage(req('/api/v1/users/search?limit=500'), settings)).toEqual({ page: 1, limit: 50 });
  });

  it('treats a zero, negative or non-numeric page as page 1', () => {
    expect(readPage(req('/x?page=0'), settings).page).toBe(1);
    expect(readPage(req('/x?page=-3'), settings).page).toBe(1);
    expect(readPage(req('/x?page=abc'), settings).page).toBe(1);
  });

  it('sets X-Total-Count and next/last links on the first page', () => {
    const h = headersFor('/api/v1/users/search?q=a&limit=10', 35);
    expect(h['X-Total-Count']).toBe('35');
    expect(h.Link).toBe(
      '<http://localhost:3000/api/v1/users/search?q=a&limit=10&page=2>; rel="next",' +
      '<http://localhost:3000/api/v1/users/search?q=a&limit=10&page=4>; rel="last"');
  });

  it('sets first/prev links and no next link on the last page', () => {
    const h = headersFor('/api/v1/admin/users?page=4&limit=10', 35);
    expect(h.Link).toBe(
      '<http://localhost:3000/api/v1/admin/users?page=1&limit=10>; rel="first",' +
      '<http://localhost:3000/api/v1/admin/users?page=3&limit=10>; rel="prev"');
  });

  it('sets no Link header when everything fits on one page', () => {
    expect(headersFor('/api/v1/users/search', 3).Link).toBeUndefined();
  });
});
