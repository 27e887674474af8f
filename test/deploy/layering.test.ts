// Which workspace package may depend on which: the services sit behind the gateway, so none
// of them depends on it (an image built for a service would otherwise carry the HTTP edge);
// what both need (Gitea's JSON shapes) lives in @anvil/presenters, which depends only on the
// shared kit and the gRPC types. Inside a service, the domain states what it needs as ports
// (interfaces and plain types) and the git, gRPC and store layers implement them: domain code
// imports none of those layers and no wire (protobuf) type.
import { describe, it, expect } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './support/kubernetes.js';

/** Modules domain code may not import: the adapters that implement its ports, and the wire types. */
const FORBIDDEN_IN_DOMAIN = /^(\.\.\/(git|grpc|store)\/|@anvil\/proto(\/|$))/;

/** Every module a TypeScript file names: static and dynamic imports, `export … from`, `import('…')` types. */
function importedModules(source: string): string[] {
  const pattern = /\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;
  return [...source.matchAll(pattern)].map((m) => m[1]);
}

function domainFiles(): string[] {
  return readdirSync(join(repoRoot, 'services')).flatMap((service) => {
    const dir = join('services', service, 'src', 'domain');
    try {
      return readdirSync(join(repoRoot, dir)).filter((f) => f.endsWith('.ts')).map((f) => join(dir, f));
    } catch {
      return [];
    }
  });
}

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

  it('keeps domain code free of git, gRPC, store and protobuf imports', () => {
    const files = domainFiles();
    expect(files.length).toBeGreaterThan(0);
    const offending = files.flatMap((file) => importedModules(readFileSync(join(repoRoot, file), 'utf8'))
      .filter((module) => FORBIDDEN_IN_DOMAIN.test(module))
      .map((module) => `${file} imports ${module}`));
    expect(offending).toEqual([]);
  });

  it('recognises every form of import a domain file could use', () => {
    const source = [
      "import type { FileChange } from '../git/pull-git.js';",
      "import { x } from\n  '../store/db.js';",
      "export { y } from '../grpc/messages.js';",
      "type R = import('@anvil/proto').repository.Repository;",
      "const m = await import('@anvil/proto');",
      "import { ok } from './permission.js';",
    ].join('\n');
    expect(importedModules(source).filter((module) => FORBIDDEN_IN_DOMAIN.test(module)))
      .toEqual(['../git/pull-git.js', '../store/db.js', '../grpc/messages.js', '@anvil/proto', '@anvil/proto']);
  });
});
