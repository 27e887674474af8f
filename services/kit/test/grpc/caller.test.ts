// The caller travels signed in gRPC metadata; both sides remember signatures they have
// already made or checked, which must never let a forged or re-keyed caller through.
import { Metadata } from '@grpc/grpc-js';
import { describe, expect, it } from '@jest/globals';
import { readCaller, writeCaller, type Caller } from '../../src/grpc/caller.js';

const ada: Caller = { userId: 7, login: 'ada', isAdmin: false, restricted: false, scopes: ['read:repository'] };

function carried(caller: Caller, secret: string): Metadata {
  const metadata = new Metadata();
  writeCaller(metadata, caller, secret);
  return metadata;
}

describe('the signed caller', () => {
  it('arrives as it was sent, again and again', () => {
    const metadata = carried(ada, 'secret-one');
    expect(readCaller(metadata, 'secret-one')).toEqual(ada);
    expect(readCaller(carried(ada, 'secret-one'), 'secret-one')).toEqual(ada);
  });

  it('is refused with another secret, even after it was accepted once', () => {
    const metadata = carried(ada, 'secret-one');
    expect(readCaller(metadata, 'secret-one')).toEqual(ada);
    expect(readCaller(metadata, 'secret-two')).toBeUndefined();
  });

  it('is refused when its payload was changed, even after the genuine one was accepted', () => {
    const metadata = carried(ada, 'secret-one');
    expect(readCaller(metadata, 'secret-one')).toEqual(ada);
    const [value] = metadata.get('x-anvil-caller') as string[];
    const [, signature] = value.split('.');
    const forged = Buffer.from(JSON.stringify({ ...ada, isAdmin: true })).toString('base64url');
    const tampered = new Metadata();
    tampered.set('x-anvil-caller', `${forged}.${signature}`);
    expect(readCaller(tampered, 'secret-one')).toBeUndefined();
  });

  it('is signed with the secret in use, not one remembered from before', () => {
    const metadata = carried(ada, 'secret-two');
    expect(readCaller(carried(ada, 'secret-one'), 'secret-two')).toBeUndefined();
    expect(readCaller(metadata, 'secret-two')).toEqual(ada);
  });
});
