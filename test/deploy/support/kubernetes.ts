// Reading deploy/kubernetes the way the API server and kustomize would: every YAML
// document, label selectors, pod templates, env resolution and NetworkPolicy rules.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const deployDir = join(repoRoot, 'deploy');
export const manifestsDir = join(deployDir, 'kubernetes');

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Labels = Record<string, string>;
export interface LabelSelector {
  matchLabels?: Labels;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Labels; annotations?: Record<string, string> };
  [field: string]: any;
}
export interface Manifest {
  /** Path relative to deploy/kubernetes. */
  file: string;
  object: K8sObject;
}

/** Every *.yaml / *.yml under a folder, recursively, sorted. */
export function yamlFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...yamlFiles(join(dir, entry.name), rel));
    else if (/\.ya?ml$/.test(entry.name)) out.push(rel);
  }
  return out;
}

/** The non-empty documents of one YAML file; throws on any YAML error or warning. */
export function parseYamlFile(path: string): unknown[] {
  const docs = parseAllDocuments(readFileSync(path, 'utf8'), { uniqueKeys: true, prettyErrors: true });
  if (!Array.isArray(docs)) return [];
  return docs.flatMap((doc) => {
    const problems = [...doc.errors, ...doc.warnings];
    if (problems.length) throw new Error(`${path}: ${problems.map((p) => p.message).join('; ')}`);
    const value = doc.toJS();
    return value === null || value === undefined ? [] : [value];
  });
}

export function loadManifests(files: string[]): Manifest[] {
  return files.flatMap((file) => parseYamlFile(join(manifestsDir, file)).map((object) => ({ file, object: object as K8sObject })));
}

/** Kubernetes label-selector semantics; an empty selector selects everything. */
export function selects(selector: LabelSelector | undefined, labels: Labels | undefined): boolean {
  if (!selector) return false;
  const l = labels ?? {};
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (l[key] !== value) return false;
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(l, key);
    if (operator === 'In' && !(has && values.includes(l[key]))) return false;
    if (operator === 'NotIn' && has && values.includes(l[key])) return false;
    if (operator === 'Exists' && !has) return false;
    if (operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** A Service's plain-map selector: non-empty, and every pair present in the labels. */
export function serviceSelects(selector: Labels | undefined, labels: Labels | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'Job'];
export const LONG_RUNNING_KINDS = ['Deployment', 'StatefulSet'];

export interface Workload {
  object: K8sObject;
  podLabels: Labels;
  pod: any;
  containers: any[];
}

export function workloads(manifests: Manifest[], kinds = WORKLOAD_KINDS): Workload[] {
  return manifests
    .filter(({ object }) => kinds.includes(object.kind))
    .map(({ object }) => ({
      object,
      podLabels: object.spec.template.metadata?.labels ?? {},
      pod: object.spec.template.spec,
      containers: [...(object.spec.template.spec.initContainers ?? []), ...object.spec.template.spec.containers],
    }));
}

export function byKind(manifests: Manifest[], kind: string): K8sObject[] {
  return manifests.filter((m) => m.object.kind === kind).map((m) => m.object);
}

export const id = (o: K8sObject): string => `${o.kind}/${o.metadata.name}`;

/**
 * A container's environment as the kubelet builds it: envFrom first, then env (which wins).
 * secretKeyRef values come from `secretData`; a missing non-optional key throws.
 */
export function containerEnv(container: any, configMaps: K8sObject[], secretData: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) {
      const cm = configMaps.find((c) => c.metadata.name === from.configMapRef.name);
      if (!cm) throw new Error(`ConfigMap ${from.configMapRef.name} not found`);
      for (const [k, v] of Object.entries(cm.data ?? {})) env[`${from.prefix ?? ''}${k}`] = String(v);
    }
    if (from.secretRef) for (const [k, v] of Object.entries(secretData)) env[`${from.prefix ?? ''}${k}`] = v;
  }
  for (const e of container.env ?? []) {
    if (e.value !== undefined) env[e.name] = String(e.value);
    else if (e.valueFrom?.secretKeyRef) {
      const { key, optional } = e.valueFrom.secretKeyRef;
      if (key in secretData) env[e.name] = secretData[key];
      else if (!optional) throw new Error(`${container.name}: secret key ${key} is required but not in the Secret`);
    } else if (e.valueFrom?.configMapKeyRef) {
      const { name, key } = e.valueFrom.configMapKeyRef;
      const value = configMaps.find((c) => c.metadata.name === name)?.data?.[key];
      if (value !== undefined) env[e.name] = String(value);
    }
  }
  return env;
}

/** Every env var name a container declares, whatever its source. */
export function declaredEnvNames(container: any, configMaps: K8sObject[], secretKeys: string[]): string[] {
  const fake = Object.fromEntries(secretKeys.map((k) => [k, 'x']));
  return Object.keys(containerEnv(container, configMaps, fake));
}

export function portNumber(container: any, port: number | string): number | undefined {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  return container.ports?.find((p: any) => p.name === port)?.containerPort;
}

export function addressPort(address: string): number {
  return Number(address.slice(address.lastIndexOf(':') + 1));
}

// ---------------------------------------------------------------- NetworkPolicy

export interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface Rule {
  ports?: Array<{ port?: number | string; endPort?: number; protocol?: string }>;
  from?: Peer[];
  to?: Peer[];
}

function policyApplies(policy: K8sObject, direction: 'Ingress' | 'Egress', podLabels: Labels): boolean {
  const types: string[] = policy.spec.policyTypes ?? (policy.spec.egress ? ['Ingress', 'Egress'] : ['Ingress']);
  return types.includes(direction) && selects(policy.spec.podSelector, podLabels);
}

function ruleCoversPort(rule: Rule, port: number, portName?: string): boolean {
  if (!rule.ports || rule.ports.length === 0) return true;
  return rule.ports.some((p) => {
    if (p.port === undefined) return true;
    if (typeof p.port === 'string' && !/^\d+$/.test(p.port)) return p.port === portName;
    const start = Number(p.port);
    return port === start || (p.endPort !== undefined && port >= start && port <= p.endPort);
  });
}

/** Whether any policy selects the pod for this direction (otherwise all traffic is allowed). */
export function isolated(policies: K8sObject[], direction: 'Ingress' | 'Egress', podLabels: Labels): boolean {
  return policies.some((p) => policyApplies(p, direction, podLabels));
}

/** The rules that let traffic in to (Ingress) or out of (Egress) a pod on a port, with their peers. */
export function rulesAllowing(
  policies: K8sObject[],
  direction: 'Ingress' | 'Egress',
  podLabels: Labels,
  port: number,
  portName?: string,
): Array<{ policy: string; peers: Peer[] | undefined }> {
  const key = direction === 'Ingress' ? 'ingress' : 'egress';
  return policies
    .filter((p) => policyApplies(p, direction, podLabels))
    .flatMap((p) =>
      ((p.spec[key] ?? []) as Rule[])
        .filter((r) => ruleCoversPort(r, port, portName))
        .map((r) => ({ policy: p.metadata.name, peers: direction === 'Ingress' ? r.from : r.to })),
    );
}

/** A peer that means "pods in this namespace with these labels" and nothing else. */
export function isSameNamespacePodPeer(peer: Peer): peer is Required<Pick<Peer, 'podSelector'>> {
  return !!peer.podSelector && !peer.namespaceSelector && !peer.ipBlock;
}
