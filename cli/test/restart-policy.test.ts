import { describe, expect, it } from '@jest/globals';
import { RestartPolicy } from '../src/restart-policy.js';

const options = { maxCrashes: 4, windowMs: 60_000, initialDelayMs: 500, maxDelayMs: 1_500 };

describe('restart policy', () => {
  it('restarts a crashed service after a delay that doubles with each crash, up to a cap', () => {
    const policy = new RestartPolicy(options);
    expect(policy.onCrash('identity', 0)).toEqual({ restart: true, delayMs: 500, crashes: 1 });
    expect(policy.onCrash('identity', 1_000)).toEqual({ restart: true, delayMs: 1_000, crashes: 2 });
    expect(policy.onCrash('identity', 2_000)).toEqual({ restart: true, delayMs: 1_500, crashes: 3 });
  });

  it('gives up on a crash loop: too many crashes within the window', () => {
    const policy = new RestartPolicy(options);
    for (let i = 0; i < 3; i++) policy.onCrash('hooks', i * 1_000);
    expect(policy.onCrash('hooks', 3_000)).toEqual({ restart: false, crashes: 4 });
  });

  it('forgets crashes older than the window', () => {
    const policy = new RestartPolicy(options);
    for (let i = 0; i < 3; i++) policy.onCrash('hooks', i * 1_000);
    expect(policy.onCrash('hooks', 120_000)).toEqual({ restart: true, delayMs: 500, crashes: 1 });
  });

  it('counts each service on its own', () => {
    const policy = new RestartPolicy(options);
    for (let i = 0; i < 3; i++) policy.onCrash('hooks', i);
    expect(policy.onCrash('identity', 3)).toMatchObject({ restart: true, crashes: 1 });
  });
});
