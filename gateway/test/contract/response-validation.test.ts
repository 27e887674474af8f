import { describe, it, expect } from '@jest/globals';
import { validateResponse } from '../../src/contract/index.js';
import { giteaIssue, giteaUser, notFoundBody } from './fixtures.js';

describe('validateResponse', () => {
  it('passes a User exactly as Gitea sends it', () => {
    expect(validateResponse('GET', '/users/alice', 200, giteaUser)).toEqual([]);
    expect(validateResponse('GET', '/user', 200, giteaUser)).toEqual([]);
  });

  it('fails a user whose id arrives as a string', () => {
    const problems = validateResponse('GET', '/users/alice', 200, { ...giteaUser, id: '1' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/body\/id must be integer/);
  });

  it('fails an invented field in strict mode, and lets it through when strictProperties is off', () => {
    const invented = { ...giteaUser, karma: 12 };
    expect(validateResponse('GET', '/users/alice', 200, invented).join()).toMatch(/"karma" the contract does not define/);
    expect(validateResponse('GET', '/users/alice', 200, invented, { strictProperties: false })).toEqual([]);
  });

  it('checks nested objects and list items through the definitions', () => {
    expect(validateResponse('GET', '/users/search', 200, { ok: true, data: [giteaUser] })).toEqual([]);
    const problems = validateResponse('GET', '/admin/users', 200, [giteaUser, { ...giteaUser, visibility: 'secret' }]);
    expect(problems.join()).toMatch(/body\/1\/visibility is "secret", must be one of/);
  });

  it('accepts null where Go can write nil: pointers to structs, slices, times', () => {
    expect(validateResponse('GET', '/repos/alice/x/issues/3', 200, giteaIssue)).toEqual([]);
  });

  it('refuses null for a plain string, number or boolean', () => {
    const problems = validateResponse('GET', '/repos/alice/x/issues/3', 200, { ...giteaIssue, title: null, comments: null });
    expect(problems.join('\n')).toMatch(/body\/title must be string/);
    expect(problems.join('\n')).toMatch(/body\/comments must be integer/);
  });

  it('checks a nullable reference when it is present', () => {
    const problems = validateResponse('GET', '/repos/alice/x/issues/3', 200, { ...giteaIssue, assignee: { ...giteaUser, id: 'x' } });
    expect(problems.join()).toMatch(/body\/assignee\/id must be integer/);
  });

  it('checks formats Go-swagger marks: date-time and email', () => {
    expect(validateResponse('GET', '/users/alice', 200, { ...giteaUser, created: '2024-05-01 10:00' }).join()).toMatch(/body\/created must match format "date-time"/);
    expect(validateResponse('GET', '/users/alice', 200, { ...giteaUser, email: 'not-an-address' }).join()).toMatch(/body\/email must match format/);
    // Go's zero value, sent for an organisation without an e-mail.
    expect(validateResponse('GET', '/users/alice', 200, { ...giteaUser, email: '' })).toEqual([]);
  });

  it('passes a 404 {"message","url","errors":[]} for an operation that declares 404', () => {
    expect(validateResponse('GET', '/users/bob', 404, notFoundBody)).toEqual([]);
    expect(validateResponse('GET', '/users/bob', 404, { ...notFoundBody, errors: null })).toEqual([]);
  });

  it('checks error bodies against Gitea`s error shape', () => {
    expect(validateResponse('POST', '/admin/users', 422, { message: '[username]: Required', url: 'http://localhost:3000/api/swagger' })).toEqual([]);
    expect(validateResponse('POST', '/admin/users', 422, { error: 'bad' }).join('\n')).toMatch(/lacks required property "message"/);
    expect(validateResponse('GET', '/users/bob', 404, { message: 'x', url: 'http://localhost:3000/' }).join()).toMatch(/body\/url must match pattern/);
    expect(validateResponse('GET', '/users/bob', 404, undefined).join()).toMatch(/must carry a JSON body/);
  });

  it('fails a status the operation does not declare', () => {
    const problems = validateResponse('GET', '/users/alice', 201, giteaUser);
    expect(problems).toEqual([expect.stringMatching(/status 201 is not declared by GET \/users\/\{username\} \(userGet\); it declares 200, 404/)]);
    expect(validateResponse('GET', '/users/alice', 500, { message: '', url: 'http://localhost:3000/api/swagger' })).toHaveLength(1);
  });

  it('accepts 401 with the error body on any operation, since Gitea`s auth layer answers it everywhere', () => {
    expect(validateResponse('GET', '/user', 401, { message: 'token is required', url: 'http://localhost:3000/api/swagger' })).toEqual([]);
    expect(validateResponse('GET', '/user', 401, { message: 'x', url: 'http://localhost:3000/api/swagger' }, { crossCutting: [] })).toHaveLength(1);
  });

  it('fails a path the document does not have', () => {
    expect(validateResponse('GET', '/repos/alice/x/nonsense', 200, {})).toEqual(['GET /repos/alice/x/nonsense is not an operation of the contract']);
  });

  it('wants no body on 204 and accepts an empty one', () => {
    expect(validateResponse('DELETE', '/repos/alice/x', 204, undefined)).toEqual([]);
    expect(validateResponse('DELETE', '/repos/alice/x', 204, '')).toEqual([]);
    expect(validateResponse('DELETE', '/repos/alice/x', 204, { ok: true }).join()).toMatch(/has no body, but one was sent/);
  });

  it('lets text bodies (diffs, raw files) through when the caller passes no JSON', () => {
    expect(validateResponse('GET', '/repos/alice/x/pulls/3.diff', 200, undefined)).toEqual([]);
    expect(validateResponse('GET', '/repos/alice/x/raw/README.md', 200, undefined)).toEqual([]);
    expect(validateResponse('GET', '/repos/alice/x/raw/package.json', 200, { name: 'any json file' })).toEqual([]);
  });

  it('wants JSON where the schema is an object, so a wrong Content-Type is caught', () => {
    expect(validateResponse('GET', '/users/alice', 200, undefined).join()).toMatch(/must carry a JSON body/);
  });

  it('reads Go-swagger`s header-only responses as the body fields they are', () => {
    const ok = { message: 'invalid topics', invalidTopics: ['Bad Topic'] };
    expect(validateResponse('PUT', '/repos/alice/x/topics', 422, ok)).toEqual([]);
    expect(validateResponse('PUT', '/repos/alice/x/topics', 422, { message: '[topics]: Required', url: 'http://localhost:3000/api/swagger' })).toEqual([]);
  });
});
