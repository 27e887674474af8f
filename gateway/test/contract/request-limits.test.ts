// Request bodies are bounded before any service sees them: Gitea's MaxSize and GitRefName
// rules per field (field-limits.ts), a cap on every other string, no NUL characters and no
// nesting deeper than any body of the contract needs — all answered with Gitea's 422.
import { describe, expect, it } from '@jest/globals';
import { contractDocument, validateRequestBody } from '../../src/contract/index.js';
import { DEFAULT_STRING_LIMIT, FIELD_LIMITS, GIT_REF_NAME_FIELDS } from '../../src/contract/field-limits.js';
import { inspectBody, MAX_BODY_DEPTH, MAX_BODY_VALUES } from '../../src/contract/validator.js';
import { verifyJsonDepth } from '../../src/http/request-hygiene.js';

const mib = 'a'.repeat(1 << 20);

describe('string lengths', () => {
  it('refuses an over-long organization field with Gitea`s MaxSize, naming the field', () => {
    expect(validateRequestBody('orgEdit', { full_name: mib })).toBe('[full_name]: MaxSize must be at most 100 characters');
    expect(validateRequestBody('orgEdit', { website: `https://x.example/${mib}` })).toBe('[website]: MaxSize must be at most 255 characters');
    expect(validateRequestBody('orgEdit', { location: 'l'.repeat(51) })).toBe('[location]: MaxSize must be at most 50 characters');
    expect(validateRequestBody('orgEdit', { description: 'd'.repeat(256) })).toBe('[description]: MaxSize must be at most 255 characters');
    expect(validateRequestBody('orgEdit', { description: 'd'.repeat(255), full_name: 'f'.repeat(100) })).toBeNull();
  });

  it('counts characters, not bytes, as Gitea counts runes', () => {
    expect(validateRequestBody('orgEdit', { full_name: '😀'.repeat(100) })).toBeNull();
    expect(validateRequestBody('orgEdit', { full_name: '😀'.repeat(101) })).toMatch(/^\[full_name\]: MaxSize/);
  });

  it('refuses a 1 MB organization name or token name', () => {
    expect(validateRequestBody('orgCreate', { username: mib })).toMatch(/^\[username\]: MaxSize must be at most 40 /);
    expect(validateRequestBody('userCreateToken', { name: mib, scopes: ['read:user'] })).toMatch(/^\[name\]: MaxSize must be at most 255 /);
  });

  it('caps strings no rule names, and items of string arrays', () => {
    expect(validateRequestBody('repoCreateTag', { tag_name: 'v1', message: 'm'.repeat(DEFAULT_STRING_LIMIT + 1) })).toMatch(/^\[message\]: MaxSize must be at most 65536 /);
    expect(validateRequestBody('userCreateToken', { name: 't', scopes: ['s'.repeat(256)] })).toMatch(/^\[scopes\[0\]\]: MaxSize/);
  });

  it('leaves file contents to the route`s body limit', () => {
    expect(validateRequestBody('repoCreateFile', { content: Buffer.from(mib).toString('base64') })).toBeNull();
  });

  it('refuses commit status fields beyond their bounds', () => {
    for (const field of ['description', 'context', 'target_url']) {
      expect(validateRequestBody('repoCreateStatus', { state: 'success', [field]: mib })).toMatch(new RegExp(`^\\[${field}\\]: MaxSize`));
    }
  });

  it('names only fields the contract has (the table cannot rot)', () => {
    const definitions = contractDocument().definitions;
    for (const [definition, fields] of Object.entries({ ...FIELD_LIMITS })) {
      for (const field of Object.keys(fields)) {
        const property = (definitions[definition]?.properties as Record<string, { type?: string; items?: { type?: string } }> | undefined)?.[field.replace(/\[\]$/, '')];
        expect({ definition, field, type: field.endsWith('[]') ? property?.items?.type : property?.type }).toEqual({ definition, field, type: 'string' });
      }
    }
    for (const [definition, fields] of Object.entries(GIT_REF_NAME_FIELDS)) {
      for (const field of fields) expect((definitions[definition]?.properties as Record<string, unknown>)[field]).toBeDefined();
    }
  });
});

describe('git ref names (Gitea`s GitRefName)', () => {
  it('refuses a name git would refuse or read as an option, and a 90 KB one', () => {
    for (const name of ['-x', '--upload-pack=evil', 'a..b', 'a b', 'x.lock', 'a/', '/a', 'a\\b', 'a~1', '@', 'a@{1}']) {
      expect(validateRequestBody('repoCreateBranch', { new_branch_name: name })).toBe('[new_branch_name]: GitRefName is not a valid git reference name');
    }
    expect(validateRequestBody('repoCreateBranch', { new_branch_name: 'b'.repeat(90_000) })).toMatch(/^\[new_branch_name\]: (MaxSize|GitRefName)/);
    expect(validateRequestBody('createCurrentUserRepo', { name: 'r', default_branch: 'b'.repeat(90_000) })).toMatch(/^\[default_branch\]/);
  });

  it('accepts ordinary and non-ASCII names, and an empty optional one', () => {
    for (const name of ['main', 'feature/x', 'v1.0', '😀', 'release-2026']) {
      expect(validateRequestBody('repoCreateBranch', { new_branch_name: name })).toBeNull();
    }
    expect(validateRequestBody('repoCreateBranch', { new_branch_name: 'x', old_branch_name: '' })).toBeNull();
  });
});

describe('NUL characters and nesting', () => {
  it('refuses a NUL in any string field or property name, naming the field', () => {
    expect(validateRequestBody('orgCreate', { username: 'a\u0000b' })).toBe('[username]: NUL characters are not allowed');
    expect(validateRequestBody('repoChangeFiles', { files: [{ operation: 'create', path: 'a\u0000' }] })).toBe('[files[0].path]: NUL characters are not allowed');
    expect(validateRequestBody('orgCreate', { username: 'a', 'x\u0000': 1 })).toMatch(/NUL characters are not allowed in property names/);
  });

  it('walks a body nested 10,000 deep without overflowing the stack, and refuses it', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = { a: [deep] };
    expect(validateRequestBody('orgCreate', { username: 'x', full_name: deep })).toBe(`[]: DeserializationError: JSON nested deeper than ${MAX_BODY_DEPTH} levels`);
    expect(inspectBody({ a: { b: null, c: [1, null] } })).toMatchObject({ data: { a: { c: [1, null] } } });
  });

  it('counts nesting on the raw bytes before parsing, ignoring brackets inside strings', () => {
    const raw = (text: string) => () => verifyJsonDepth(undefined as never, undefined, Buffer.from(text));
    expect(raw(`${'['.repeat(10_000)}${']'.repeat(10_000)}`)).toThrow(/nested deeper/);
    expect(raw(JSON.stringify({ a: '['.repeat(1000), b: '\\"[[[' }))).not.toThrow();
    expect(raw(`${'['.repeat(MAX_BODY_DEPTH)}${']'.repeat(MAX_BODY_DEPTH)}`)).not.toThrow();
  });
});

describe('huge bodies', () => {
  it('are checked up to their first mismatch, and refused beyond 100,000 values', () => {
    expect(validateRequestBody('userAddEmail', { emails: Array(90_000).fill(1) })).toMatch(/^\[emails\[0\]\]: json: cannot unmarshal number/);
    expect(validateRequestBody('orgEdit', Object.fromEntries(Array.from({ length: 90_000 }, (_, i) => [`k${i}`, 'v'])))).toBeNull();
    expect(validateRequestBody('repoChangeFiles', { files: Array(200_000).fill({ operation: 'create', path: 'a' }) })).toBe(`[]: DeserializationError: more than ${MAX_BODY_VALUES} values`);
  });
});
