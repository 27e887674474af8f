// Gitea's pagination (routers/api/v1/utils.GetListOptions, context.SetLinkHeader):
// `page` is 1-based (anything below 1 is 1); `limit` defaults to [api] DEFAULT_PAGING_NUM
// and is capped at [api] MAX_RESPONSE_ITEMS. Lists answer `Link` (first/prev/next/last)
// and, where the total is known, `X-Total-Count`.
import type { Request, Response } from 'express';

export interface Page {
  page: number;
  limit: number;
}

export interface PagingSettings {
  DEFAULT_PAGING_NUM: number;
  MAX_RESPONSE_ITEMS: number;
}

function positiveInt(value: unknown): number {
  const n = typeof value === 'string' ? Number.parseInt(value, 10) : NaN;
  return Number.isFinite(n) && n > 0 ? n : 0;
}

export function readPage(req: Request, settings: PagingSettings): Page {
  const query = req.query as Record<string, unknown>;
  const page = positiveInt(query.page) || 1;
  let limit = positiveInt(query.limit) || positiveInt(query.per_page) || settings.DEFAULT_PAGING_NUM;
  if (limit > settings.MAX_RESPONSE_ITEMS) limit = settings.MAX_RESPONSE_ITEMS;
  return { page, limit };
}

/** Sets Link and X-Total-Count for a page of `total` items. */
export function setPagingHeaders(req: Request, res: Response, page: Page, total: number, rootUrl: string): void {
  res.setHeader('X-Total-Count', String(total));
  const lastPage = Math.max(1, Math.ceil(total / page.limit));
  const base = new URL(req.originalUrl, rootUrl);
  const link = (n: number, rel: string) => {
    base.searchParams.set('page', String(n));
    return `<${rootUrl.replace(/\/$/, '')}${base.pathname}${base.search}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page.page < lastPage) links.push(link(page.page + 1, 'next'), link(lastPage, 'last'));
  if (page.page > 1) links.push(link(1, 'first'), link(Math.min(page.page - 1, lastPage), 'prev'));
  if (links.length) res.setHeader('Link', links.join(','));
}
