// Static checks of deploy/kubernetes: every document parses and fits the Kubernetes
// OpenAPI schema, and the manifests hold together the way Anvil needs them to (probes,
// budgets, selectors, wiring of addresses and ports, env names Anvil reads, policies).
import { describe, it, expect, beforeAll } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadConfig, SERVICE_NAMES, ConfigError } from '../../services/kit/src/config/index.js';
import {
  addressPort, byKind, containerEnv, declaredEnvNames, deployDir, id, isSameNamespacePodPeer, isolated, loadManifests,
  LONG_RUNNING_KINDS, manifestsDir, parseYamlFile, portNumber, repoRoot, rulesAllowing, selects, serviceSelects,
  workloads, yamlFiles, type K8sObject, type Manifest, type Workload,
} from './support/kubernetes.js';
import { validateAgainstSchema } from './support/schema.js';

// The plain variables Anvil reads (DESIGN.md §5, README "Configuration", services/kit).
// Gitea-style settings (ANVIL__<section>__<KEY>) are checked by Anvil's own config loader.
const ANVIL_ENV = [
  'ANVIL_HTTP_PORT', 'ANVIL_ROOT_URL', 'ANVIL_DATA_DIR', 'ANVIL_DATABASE_URL', 'NATS_URL',
  'ANVIL_IDENTITY_ADDR', 'ANVIL_REPOSITORY_ADDR', 'ANVIL_COLLABORATION_ADDR', 'ANVIL_HOOKS_ADDR',
  'ANVIL_GRPC_LISTEN', 'ANVIL_REPOSITORY_HTTP_ADDR', 'ANVIL_METRICS_ADDR', 'ANVIL_EVENTS_NAMESPACE',
  'ANVIL_LOG_LEVEL', 'ANVIL_MIGRATE_ONLY', 'ANVIL_ADMIN_USERNAME', 'ANVIL_ADMIN_PASSWORD', 'ANVIL_ADMIN_EMAIL',
  'ANVIL_CONFIG',
];
const GRPC_PORTS: Record<string, number> = { identity: 50051, repository: 50052, collaboration: 50053, hooks: 50054 };
const REPOSITORY_HTTP_PORT = 50062;
const SERVICES = Object.keys(GRPC_PORTS);

const files = yamlFiles(manifestsDir);
const kustomization = parse(readFileSync(join(manifestsDir, 'kustomization.yaml'), 'utf8'));
const objects: Manifest[] = loadManifests(files.filter((f) => f !== 'kustomization.yaml'));
const applied = objects.filter((m) => (kustomization.resources as string[]).includes(m.file));
const all = applied.map((m) => m.object);
const configMaps = byKind(applied, 'ConfigMap');
const secretTemplate = byKind(objects, 'Secret')[0];
// The template's keys with values that would work (its placeholders are invalid on purpose).
const secretData: Record<string, string> = {
  ...secretTemplate.stringData,
  'internal-token': 'k'.repeat(64),
  'database-url': 'postgresql://anvil:s3cret@anvil-db-rw.anvil-db.svc.cluster.local:5432/anvil',
};
const pods = workloads(applied);
const longRunning = workloads(applied, LONG_RUNNING_KINDS);
const policies = byKind(applied, 'NetworkPolicy');
const component = (w: Workload): string => w.podLabels['app.kubernetes.io/component'];
const workloadOf = (name: string): Workload => {
  const w = longRunning.find((x) => component(x) === name);
  if (!w) throw new Error(`no workload for ${name}`);
  return w;
};
const envOf = (w: Workload, container = w.containers[0]): Record<string, string> => containerEnv(container, configMaps, secretData);

describe('deploy/kubernetes documents', () => {
  it('parses every YAML document without errors or duplicate keys', () => {
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) expect(() => parseYamlFile(join(manifestsDir, file))).not.toThrow();
  });

  it('gives every object an apiVersion, a kind and a name', () => {
    for (const { file, object } of objects) {
      expect({ file, apiVersion: typeof object.apiVersion, kind: typeof object.kind, name: typeof object.metadata?.name })
        .toEqual({ file, apiVersion: 'string', kind: 'string', name: 'string' });
    }
  });

  it('fits the Kubernetes OpenAPI schema of its kind, with no unknown fields', async () => {
    const problems: string[] = [];
    for (const { file, object } of objects) {
      const { errors, unknownFields } = await validateAgainstSchema(object);
      problems.push(...errors.map((e) => `${file} ${id(object)} ${e}`));
      problems.push(...unknownFields.map((f) => `${file} ${id(object)} unknown field ${f}`));
    }
    expect(problems).toEqual([]);
  });

  it('lists every manifest in kustomization.yaml except the Secret template and the optional ones', () => {
    const expected = files.filter((f) => f !== 'kustomization.yaml' && f !== 'secret.example.yaml' && !f.startsWith('optional/'));
    expect([...kustomization.resources].sort()).toEqual(expected.sort());
    expect(byKind(applied, 'Secret')).toEqual([]);
  });

  it('puts every namespaced object in the anvil namespace', () => {
    for (const o of all.filter((x) => x.kind !== 'Namespace')) expect([id(o), o.metadata.namespace]).toEqual([id(o), 'anvil']);
    expect(kustomization.namespace).toBe('anvil');
  });

  const kubectl = (() => {
    try {
      execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  (kubectl ? it : it.skip)('renders with kustomize (kubectl kustomize) to the same objects, images from the images list', () => {
    const out = execFileSync('kubectl', ['kustomize', manifestsDir], { encoding: 'utf8' });
    const rendered = out.split(/^---$/m).map((d) => parse(d)).filter(Boolean) as K8sObject[];
    expect(rendered.map(id).sort()).toEqual(all.map(id).sort());
    const images = rendered.flatMap((o) => o.spec?.template?.spec?.containers?.map((c: { image: string }) => c.image) ?? []);
    for (const image of images) expect(image).toMatch(/^registry\.example\.com\/anvil\/[a-z]+:\d+\.\d+\.\d+$/);
  });
});

describe('workloads', () => {
  it('runs the gateway and three services as 2-replica Deployments and repository as a 1-replica StatefulSet', () => {
    const shape = longRunning.map((w) => [component(w), w.object.kind, w.object.spec.replicas]).sort();
    expect(shape).toEqual([
      ['collaboration', 'Deployment', 2], ['gateway', 'Deployment', 2], ['hooks', 'Deployment', 2],
      ['identity', 'Deployment', 2], ['repository', 'StatefulSet', 1],
    ]);
    expect(readFileSync(join(manifestsDir, 'repository.yaml'), 'utf8')).toMatch(/ONE replica[\s\S]*ReadWriteOnce/);
  });

  it('gives every container resource requests and limits for cpu and memory', () => {
    for (const w of pods) {
      for (const c of w.containers) {
        for (const kind of ['requests', 'limits']) {
          expect([id(w.object), c.name, kind, Object.keys(c.resources?.[kind] ?? {}).sort()])
            .toEqual([id(w.object), c.name, kind, ['cpu', 'memory']]);
        }
      }
    }
  });

  it('probes every long-running container: HTTP /api/healthz for the gateway, gRPC health for services', () => {
    for (const w of longRunning) {
      for (const c of w.containers) {
        for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) expect([id(w.object), probe, !!c[probe]]).toEqual([id(w.object), probe, true]);
        if (component(w) === 'gateway') {
          expect(c.readinessProbe.httpGet.path).toBe('/api/healthz');
          expect(portNumber(c, c.readinessProbe.httpGet.port)).toBe(Number(envOf(w, c).ANVIL_HTTP_PORT));
        } else {
          const listen = addressPort(envOf(w, c).ANVIL_GRPC_LISTEN);
          for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) expect(c[probe].grpc?.port).toBe(listen);
        }
      }
    }
  });

  it('runs every pod non-root with a read-only root filesystem and an emptyDir /tmp', () => {
    for (const w of pods) {
      expect([id(w.object), w.pod.securityContext?.runAsNonRoot, w.pod.securityContext?.seccompProfile?.type]).toEqual([id(w.object), true, 'RuntimeDefault']);
      expect(w.pod.securityContext.runAsUser).toBeGreaterThan(0);
      for (const c of w.containers) {
        expect([id(w.object), c.securityContext]).toEqual([id(w.object), expect.objectContaining({
          allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] },
        })]);
        const tmp = c.volumeMounts?.find((m: { mountPath: string }) => m.mountPath === '/tmp');
        const volume = w.pod.volumes?.find((v: { name: string }) => v.name === tmp?.name);
        expect([id(w.object), !!volume?.emptyDir]).toEqual([id(w.object), true]);
      }
    }
  });

  it('spreads every long-running workload across nodes and zones', () => {
    for (const w of longRunning) {
      const constraints = w.pod.topologySpreadConstraints ?? [];
      const keys = constraints.filter((t: { labelSelector: never }) => selects(t.labelSelector, w.podLabels)).map((t: { topologyKey: string }) => t.topologyKey);
      expect([id(w.object), keys.sort()]).toEqual([id(w.object), ['kubernetes.io/hostname', 'topology.kubernetes.io/zone']]);
    }
  });

  it('selects each workload\'s own pods and no other workload\'s', () => {
    for (const w of pods) {
      const selector = w.object.kind === 'Job' ? undefined : w.object.spec.selector;
      if (!selector) continue;
      expect([id(w.object), selects(selector, w.podLabels)]).toEqual([id(w.object), true]);
      for (const other of pods.filter((o) => o !== w)) expect([id(w.object), id(other.object), selects(selector, other.podLabels)]).toEqual([id(w.object), id(other.object), false]);
    }
  });

  it('keeps git data on a ReadWriteOnce claim mounted at ANVIL_DATA_DIR, with git only in the repository image', () => {
    const repo = workloadOf('repository');
    const [claim] = repo.object.spec.volumeClaimTemplates;
    expect(claim.spec.accessModes).toEqual(['ReadWriteOnce']);
    const mount = repo.containers[0].volumeMounts.find((m: { name: string }) => m.name === claim.metadata.name);
    expect(mount.mountPath).toBe(envOf(repo).ANVIL_DATA_DIR);
    expect(repo.pod.securityContext.fsGroup).toBe(repo.pod.securityContext.runAsGroup);
  });

  it('uses no :latest image, and every image is an anvil/<target>:<version> built by the Dockerfile', () => {
    for (const w of pods) {
      for (const c of w.containers) {
        expect(c.image).not.toMatch(/:latest$/);
        expect(c.image).toMatch(/^anvil\/(gateway|identity|repository|collaboration|hooks):\d+\.\d+\.\d+$/);
      }
    }
    for (const image of kustomization.images) expect(image.newTag).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('availability', () => {
  it('covers every Deployment and StatefulSet with exactly one PodDisruptionBudget', () => {
    const budgets = byKind(applied, 'PodDisruptionBudget');
    for (const w of longRunning) {
      const covering = budgets.filter((b) => selects(b.spec.selector, w.podLabels)).map((b) => b.metadata.name);
      expect([id(w.object), covering.length]).toEqual([id(w.object), 1]);
    }
    for (const b of budgets) expect(pods.filter((w) => selects(b.spec.selector, w.podLabels)).map((w) => w.object.kind)).not.toContain('Job');
  });

  it('autoscales every stateless Deployment, and not the repository StatefulSet', () => {
    const hpas = byKind(applied, 'HorizontalPodAutoscaler');
    const targets = hpas.map((h) => `${h.spec.scaleTargetRef.kind}/${h.spec.scaleTargetRef.name}`).sort();
    expect(targets).toEqual(longRunning.filter((w) => w.object.kind === 'Deployment').map((w) => id(w.object)).sort());
    for (const h of hpas) expect(h.spec.minReplicas).toBeGreaterThanOrEqual(2);
  });
});

describe('services and wiring', () => {
  it('matches every Service selector to a workload and every targetPort to a container port', () => {
    for (const svc of byKind(applied, 'Service')) {
      const matched = longRunning.filter((w) => serviceSelects(svc.spec.selector, w.podLabels));
      expect([id(svc), matched.length]).toEqual([id(svc), 1]);
      for (const p of svc.spec.ports) {
        expect([id(svc), p.name, portNumber(matched[0].containers[0], p.targetPort ?? p.port)]).toEqual([id(svc), p.name, expect.any(Number)]);
      }
      expect(svc.spec.type ?? 'ClusterIP').toBe('ClusterIP');
    }
  });

  it('points the gateway at each service\'s Service and port, which lands on the port the service binds', () => {
    const gateway = workloadOf('gateway');
    const config = loadConfig(envOf(gateway));
    const landing = (address: string) => {
      // dns:///name:port (a headless Service, balanced per call) lands like name:port.
      const hostPort = address.replace(/^dns:\/\/[^/]*\//, '');
      const host = hostPort.slice(0, hostPort.lastIndexOf(':'));
      const svc = byKind(applied, 'Service').find((s) => s.metadata.name === host);
      if (!svc) throw new Error(`no Service ${host}`);
      const port = svc.spec.ports.find((p: { port: number }) => p.port === addressPort(address));
      if (!port) throw new Error(`Service ${host} has no port ${addressPort(address)}`);
      const w = longRunning.find((x) => serviceSelects(svc.spec.selector, x.podLabels))!;
      return { component: component(w), port: portNumber(w.containers[0], port.targetPort ?? port.port), env: envOf(w) };
    };
    for (const name of SERVICE_NAMES) {
      const target = landing(config.addresses[name]);
      expect([name, target.component, target.port]).toEqual([name, name, addressPort(target.env.ANVIL_GRPC_LISTEN)]);
      expect(target.port).toBe(GRPC_PORTS[name]);
    }
    const side = landing(config.repositoryHttpAddress);
    expect([side.component, side.port]).toEqual(['repository', addressPort(side.env.ANVIL_REPOSITORY_HTTP_ADDR)]);
    expect(side.port).toBe(REPOSITORY_HTTP_PORT);
  });

  it('exposes the gateway through the Ingress on the host ANVIL_ROOT_URL names', () => {
    const [ingress] = byKind(applied, 'Ingress');
    const rule = ingress.spec.rules[0];
    const backend = rule.http.paths[0].backend.service;
    const svc = byKind(applied, 'Service').find((s) => s.metadata.name === backend.name)!;
    expect(longRunning.filter((w) => serviceSelects(svc.spec.selector, w.podLabels)).map(component)).toEqual(['gateway']);
    expect(svc.spec.ports.map((p: { name: string }) => p.name)).toContain(backend.port.name);
    expect(loadConfig(envOf(workloadOf('gateway'))).rootUrl).toBe(`https://${rule.host}/`);
  });

  it('exports metrics on the annotated port, the one ANVIL_METRICS_ADDR binds', () => {
    for (const w of longRunning) {
      const annotations = w.object.spec.template.metadata.annotations ?? {};
      expect([id(w.object), annotations['prometheus.io/scrape']]).toEqual([id(w.object), 'true']);
      const port = Number(annotations['prometheus.io/port']);
      expect(port).toBe(addressPort(envOf(w).ANVIL_METRICS_ADDR));
      expect(w.containers[0].ports.find((p: { name: string }) => p.name === 'metrics')?.containerPort).toBe(port);
    }
  });
});

describe('configuration', () => {
  const sourceText = (() => {
    const dirs = [join(repoRoot, 'gateway/src'), ...SERVICE_NAMES.map((s) => join(repoRoot, 'services', s, 'src')), join(repoRoot, 'services/kit/src')];
    const read = (dir: string): string => !existsSync(dir) ? '' : readdirSync(dir, { withFileTypes: true })
      .map((e) => e.isDirectory() ? (e.name === 'generated' ? '' : read(join(dir, e.name))) : e.name.endsWith('.ts') ? readFileSync(join(dir, e.name), 'utf8') : '')
      .join('\n');
    return dirs.map(read).join('\n');
  })();

  it('uses only environment variable names Anvil reads', () => {
    const secretKeys = Object.keys(secretTemplate.stringData).concat(['admin-username', 'admin-password', 'admin-email']);
    for (const w of pods) {
      for (const c of w.containers) {
        for (const name of declaredEnvNames(c, configMaps, secretKeys)) {
          const known = ANVIL_ENV.includes(name) || /^ANVIL__[a-z0-9_]+__[A-Z0-9_]+$/.test(name);
          expect([id(w.object), name, known]).toEqual([id(w.object), name, true]);
        }
      }
    }
  });

  it('only lists names the runtime sources really read', () => {
    for (const name of ANVIL_ENV) {
      const perService = /^ANVIL_([A-Z]+)_ADDR$/.exec(name);
      const read = sourceText.includes(name)
        || (!!perService && (SERVICE_NAMES as readonly string[]).includes(perService[1].toLowerCase()) && sourceText.includes('_ADDR`'));
      expect([name, read]).toEqual([name, true]);
    }
  });

  it('gives every container a configuration Anvil\'s loader accepts, with what its process requires', () => {
    for (const w of pods) {
      for (const c of w.containers) {
        const env = envOf(w, c);
        const config = loadConfig(env);
        expect([id(w.object), !!config.natsUrl, !!config.settings.security.INTERNAL_TOKEN]).toEqual([id(w.object), true, true]);
        const isGateway = w.podLabels['app.kubernetes.io/component'] === 'gateway';
        expect([id(w.object), 'database', !!config.databaseUrl]).toEqual([id(w.object), 'database', !isGateway]);
      }
    }
  });

  it('refuses the Secret template\'s placeholder token, so an unedited template cannot go live', () => {
    const env = envOf(workloadOf('identity'));
    env.ANVIL__security__INTERNAL_TOKEN = secretTemplate.stringData['internal-token'];
    expect(() => loadConfig(env)).toThrow(ConfigError);
  });

  it('asks the Secret only for keys the template documents', () => {
    const template = readFileSync(join(manifestsDir, 'secret.example.yaml'), 'utf8');
    for (const w of pods) {
      for (const c of w.containers) {
        for (const e of c.env ?? []) {
          const ref = e.valueFrom?.secretKeyRef;
          if (!ref) continue;
          expect(ref.name).toBe(secretTemplate.metadata.name);
          if (ref.optional) expect(template).toContain(`${ref.key}:`);
          else expect(Object.keys(secretTemplate.stringData)).toContain(ref.key);
        }
      }
    }
  });

  it('runs one migration Job per service, with the service\'s image and ANVIL_MIGRATE_ONLY=true', () => {
    const jobs = pods.filter((w) => w.object.kind === 'Job');
    expect(jobs.map((j) => j.podLabels['app.kubernetes.io/instance']).sort()).toEqual([...SERVICES].sort());
    for (const job of jobs) {
      const service = job.podLabels['app.kubernetes.io/instance'];
      expect(job.containers[0].image).toBe(workloadOf(service).containers[0].image);
      expect(envOf(job).ANVIL_MIGRATE_ONLY).toBe('true');
      expect(['Never', 'OnFailure']).toContain(job.pod.restartPolicy);
      for (const svc of byKind(applied, 'Service')) expect(serviceSelects(svc.spec.selector, job.podLabels)).toBe(false);
    }
  });
});

describe('network policies', () => {
  const gatewayLabels = () => workloadOf('gateway').podLabels;
  const isGatewayOnly = (peers: Parameters<typeof isSameNamespacePodPeer>[0][] | undefined): boolean =>
    !!peers && peers.length > 0 && peers.every((p) => isSameNamespacePodPeer(p)
      && selects(p.podSelector, gatewayLabels())
      && pods.filter((w) => component(w) !== 'gateway').every((w) => !selects(p.podSelector, w.podLabels)));

  it('denies all traffic by default', () => {
    const deny = policies.find((p) => Object.keys(p.spec.podSelector).length === 0 && !p.spec.ingress && !p.spec.egress);
    expect(deny?.spec.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
  });

  it('lets only the gateway reach each service\'s gRPC port (and repository\'s pack channel)', () => {
    for (const name of SERVICES) {
      const w = workloadOf(name);
      expect(isolated(policies, 'Ingress', w.podLabels)).toBe(true);
      for (const port of w.containers[0].ports.filter((p: { name: string }) => p.name !== 'metrics')) {
        const rules = rulesAllowing(policies, 'Ingress', w.podLabels, port.containerPort, port.name);
        expect([name, port.containerPort, rules.length > 0]).toEqual([name, port.containerPort, true]);
        for (const rule of rules) expect([name, port.containerPort, rule.policy, isGatewayOnly(rule.peers)]).toEqual([name, port.containerPort, rule.policy, true]);
      }
    }
  });

  it('lets the gateway out to every service port it dials', () => {
    const gateway = workloadOf('gateway');
    for (const name of SERVICES) {
      const target = workloadOf(name);
      for (const port of target.containers[0].ports.filter((p: { name: string }) => p.name !== 'metrics')) {
        const peers = rulesAllowing(policies, 'Egress', gateway.podLabels, port.containerPort).flatMap((r) => r.peers ?? []);
        expect([name, port.containerPort, peers.some((p) => isSameNamespacePodPeer(p) && selects(p.podSelector, target.podLabels))])
          .toEqual([name, port.containerPort, true]);
      }
    }
  });

  it('lets services and migration Jobs reach PostgreSQL, and everything but Jobs reach NATS; the gateway has no database', () => {
    const outside = (labels: Record<string, string>, port: number) =>
      rulesAllowing(policies, 'Egress', labels, port).some((r) => (r.peers ?? []).some((p) => !!p.namespaceSelector));
    for (const w of pods) {
      const role = component(w);
      expect([id(w.object), 'postgres', outside(w.podLabels, 5432)]).toEqual([id(w.object), 'postgres', role !== 'gateway']);
      expect([id(w.object), 'nats', outside(w.podLabels, 4222)]).toEqual([id(w.object), 'nats', role !== 'migration']);
    }
  });

  it('lets Prometheus, and only Prometheus, scrape the metrics port', () => {
    for (const w of longRunning) {
      const rules = rulesAllowing(policies, 'Ingress', w.podLabels, 9090, 'metrics');
      expect([id(w.object), rules.length > 0]).toEqual([id(w.object), true]);
      for (const r of rules) {
        expect([id(w.object), r.policy, (r.peers ?? []).every((p) => !!p.namespaceSelector && !!p.podSelector)]).toEqual([id(w.object), r.policy, true]);
      }
    }
  });
});

describe('deploy/README.md', () => {
  let readme = '';
  beforeAll(() => {
    readme = readFileSync(join(deployDir, 'README.md'), 'utf8');
  });

  it('describes every manifest file', () => {
    for (const file of files) expect([file, readme.includes(file)]).toEqual([file, true]);
  });

  it('names the operators/charts that provide PostgreSQL and NATS', () => {
    expect(readme).toMatch(/CloudNativePG/);
    expect(readme).toMatch(/NATS Helm chart/i);
    expect(readme).toMatch(/JetStream/);
  });
});
