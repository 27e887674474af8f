import { describe, it, expect } from '@jest/globals';
import { validateRequestBody } from '../../src/contract/index.js';

const alice = { username: 'alice', email: 'alice@example.com', password: 'secret123' };

describe('validateRequestBody', () => {
  it('accepts a CreateUserOption that fits, ignoring properties the document does not list', () => {
    expect(validateRequestBody('adminCreateUser', alice)).toBeNull();
    expect(validateRequestBody('adminCreateUser', { ...alice, shoe_size: 42 })).toBeNull();
  });

  it('names username when it is missing, in Gitea`s "[field]: Required" form', () => {
    const { username: _, ...rest } = alice;
    expect(validateRequestBody('adminCreateUser', rest)).toBe('[username]: Required');
  });

  it('treats an empty or zero required field as missing, as Gitea`s binding does', () => {
    expect(validateRequestBody('adminCreateUser', { ...alice, username: '' })).toBe('[username]: Required');
    expect(validateRequestBody('adminCreateUser', undefined)).toBe('[username]: Required');
  });

  it('treats null as not sent, as Go`s decoder does', () => {
    expect(validateRequestBody('adminCreateUser', { ...alice, full_name: null })).toBeNull();
    expect(validateRequestBody('adminCreateUser', { ...alice, username: null })).toBe('[username]: Required');
  });

  it('reports a wrong JSON type with Go`s decoding message, naming the field', () => {
    expect(validateRequestBody('adminCreateUser', { ...alice, email: 5 })).toBe(
      '[email]: json: cannot unmarshal number into Go struct field CreateUserOption.email of type string',
    );
    expect(validateRequestBody('adminCreateUser', { ...alice, source_id: '3' })).toMatch(/^\[source_id\]: .*string into .* of type int64$/);
    expect(validateRequestBody('adminCreateUser', [alice])).toBe('[]: json: cannot unmarshal array into Go value of type structs.CreateUserOption');
  });

  it('puts decoding errors before rule errors, as Gitea reports errs[0]', () => {
    expect(validateRequestBody('adminCreateUser', { email: 5 })).toMatch(/^\[email\]: json: cannot unmarshal/);
  });

  it('checks formats and enums', () => {
    expect(validateRequestBody('adminCreateUser', { ...alice, email: 'alice' })).toBe('[email]: Email is not a valid email address');
    expect(validateRequestBody('adminCreateUser', { ...alice, email: 'root@localhost' })).toBeNull();
    expect(validateRequestBody('adminCreateUser', { ...alice, visibility: 'secret' })).toMatch(/^\[visibility\]: In must be one of "public", "limited", "private"$/);
    expect(validateRequestBody('adminCreateUser', { ...alice, created_at: 'yesterday' })).toMatch(/^\[created_at\]: parsing time "yesterday"/);
  });

  it('names nested fields by their JSON path', () => {
    expect(validateRequestBody('repoChangeFiles', { files: [{ operation: 'create' }] })).toBe('[files[0].path]: Required');
    expect(validateRequestBody('issueCreateIssue', { title: 't', labels: ['bug'] })).toMatch(/^\[labels\[0\]\]: json: cannot unmarshal string/);
  });

  it('has nothing to say about an operation without a body, and refuses an unknown operationId', () => {
    expect(validateRequestBody('userGet', { anything: true })).toBeNull();
    expect(() => validateRequestBody('noSuchOperation', {})).toThrow(/noSuchOperation/);
  });
});
