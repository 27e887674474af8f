// Which workspace package may depend on which: the services sit behind the gateway, so none
// of them depends on it (an image built for a service would otherwise carry the HTTP edge);
// what both need (Gitea's JSON shapes) lives in @anvil/presenters, which depends only on the
// shared kit and the gRPC types.
import { describe, it, expect } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './support/kubernetes.js';

function workspaceDependencies(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(repoRoot, dir, 'package.json'), 'utf8')) as
    { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  return Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => name.startsWith('@anvil/'));
}

describe('workspace layering', () => {
  it('keeps every service independent of the gateway', () => {
    const services = readdirSync(join(repoRoot, 'services'));
    expect(services.length).toBeGreaterThan(0);
    for (const service of services) {
      expect([service, workspaceDependencies(`services/${service}`)]).not.toEqual([service, expect.arrayContaining(['@anvil/gateway'])]);
    }
  });

  it('lets the presenters depend only on the kit and the gRPC types', () => {
    expect(workspaceDependencies('presenters').sort()).toEqual(['@anvil/kit', '@anvil/proto']);
  });
});
