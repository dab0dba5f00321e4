import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config.ts';
import { parseConnectorsConfig } from '../../src/connectors/config.ts';
import { kubernetesConnector } from '../../src/connectors/kubernetes.ts';
import { FLINK_TM_POD, kubeFake, kubeTargetFor, MEMHOG } from '../connectors/fakes/kube-fake.ts';
import type { RestFake } from '../connectors/fakes/rest-fake.ts';
import { makeCa, ServiceAccountVolume } from '../connectors/fakes/service-account.ts';
import { validate } from './k8s-validate.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OVERLAY = join(ROOT, 'deploy/kubernetes-in-cluster');

// biome-ignore lint/suspicious/noExplicitAny: manifests are checked field by field below, not typed.
type Doc = any;
const load = (file: string): Doc => parse(readFileSync(join(OVERLAY, file), 'utf8'));
const kustomization = load('kustomization.yaml');
const own = (kustomization.resources as string[]).filter((r) => !r.startsWith('..')).map(load);
const ofKind = (kind: string): Doc => own.find((d) => d.kind === kind);
const patch = (kind: string): Doc =>
  (kustomization.patches as { path: string }[]).map((p) => load(p.path)).find((d) => d.kind === kind);

/** A rule as `verb group/resource`, one per verb and resource, as RBAC grants them. */
const grants = (rules: Doc[]): string[] =>
  rules
    .flatMap((r) =>
      (r.apiGroups as string[]).flatMap((g) =>
        (r.resources as string[]).flatMap((res) => (r.verbs as string[]).map((v) => `${v} ${g}/${res}`)),
      ),
    )
    .sort();

/**
 * What RBAC checks for a request, by the API server's request-info rules: GET on a named object (or
 * its subresource) is `get`, on a collection `list`; core objects (/api/v1) are in group "".
 */
function asked(method: string, path: string): string {
  const m = /^\/api\/v1\/namespaces\/[^/]+\/([^/?]+)(?:\/([^/?]+)(?:\/([^/?]+))?)?/.exec(path);
  if (!m || method !== 'GET') throw new Error(`not a namespaced core GET: ${method} ${path}`);
  const [, resource, name, sub] = m;
  return `${name ? 'get' : 'list'} /${resource}${sub ? `/${sub}` : ''}`;
}

describe('deploy/kubernetes-in-cluster: the Role is what the connector asks for', () => {
  let fake: RestFake;
  let requests: string[];
  beforeAll(async () => {
    fake = kubeFake();
    const target = kubeTargetFor(await fake.start());
    // Each resource asked of a pod it applies to: an ended (never restarted) container's own log is
    // read of the native Flink TaskManager, the previous log of the restarted memhog container.
    const ended = {
      pod: `${FLINK_TM_POD.namespace}/${FLINK_TM_POD.name}`,
      container: FLINK_TM_POD.container,
    };
    const memhog = { pod: `${MEMHOG.namespace}/${MEMHOG.name}`, container: MEMHOG.container };
    for (const resource of Object.keys(kubernetesConnector.resources))
      await kubernetesConnector.fetch(
        { resource, ids: resource === 'ended-log' ? ended : memhog },
        { target },
      );
    requests = [...new Set(fake.seen.map((s) => asked(s.method, s.path)))].sort();
  });
  afterAll(async () => {
    expect(fake.violations).toEqual([]);
    await fake.stop();
  });

  it('grants exactly the requests the connector sends: get pods, list events, get pods/log', () => {
    expect(requests).toEqual(['get /pods', 'get /pods/log', 'list /events']);
    expect(grants(ofKind('Role').rules)).toEqual(requests);
  });

  it('grants neither more nor less in a changed copy (the check can fail)', () => {
    const wider = [...ofKind('Role').rules, { apiGroups: [''], resources: ['pods'], verbs: ['list'] }];
    expect(grants(wider)).not.toEqual(requests);
    expect(grants(ofKind('Role').rules.slice(1))).not.toEqual(requests);
  });

  it('is the Role docs/connectors.md gives for other namespaces', () => {
    const docs = readFileSync(join(ROOT, 'docs/connectors.md'), 'utf8');
    const blocks = [...docs.matchAll(/```yaml\n([\s\S]*?)```/g)].flatMap((b) =>
      parseAllDocuments(b[1] ?? '').map((d) => d.toJSON()),
    );
    const role = blocks.find((d) => d?.kind === 'Role' && d.metadata?.name === 'memdoctor-reader');
    expect(grants(role.rules)).toEqual(grants(ofKind('Role').rules));
  });
});

describe('deploy/kubernetes-in-cluster: the overlay’s own files', () => {
  it('are objects the Kubernetes API accepts', () => {
    expect(own.map((d) => d.kind).sort()).toEqual(['ConfigMap', 'Role', 'RoleBinding', 'ServiceAccount']);
    for (const doc of own) expect(validate(doc), doc.kind).toEqual([]);
  });

  it('bind the Role to the ServiceAccount the Deployment runs as, in the overlay’s namespace', () => {
    const binding = ofKind('RoleBinding');
    expect(binding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'Role',
      name: ofKind('Role').metadata.name,
    });
    expect(binding.subjects).toEqual([
      {
        kind: 'ServiceAccount',
        name: ofKind('ServiceAccount').metadata.name,
        namespace: kustomization.namespace,
      },
    ]);
    const pod = patch('Deployment').spec.template.spec;
    expect(pod.serviceAccountName).toBe(ofKind('ServiceAccount').metadata.name);
    expect(pod.automountServiceAccountToken).toBe(true);
  });

  it('mount the connectors.yaml where MEMDOCTOR_CONNECTORS names it', () => {
    const pod = patch('Deployment').spec.template.spec;
    const volume = pod.volumes.find((v: Doc) => v.configMap?.name === ofKind('ConfigMap').metadata.name);
    const mount = pod.containers[0].volumeMounts.find((m: Doc) => m.name === volume.name);
    const file = patch('ConfigMap').data.MEMDOCTOR_CONNECTORS;
    expect(file).toBe(`${mount.mountPath}/connectors.yaml`);
    expect(Object.keys(ofKind('ConfigMap').data)).toEqual(['connectors.yaml']);
    expect(mount.readOnly).toBe(true);
  });

  it('hold a connectors.yaml that memdoctor starts with in a pod, reading its own namespace', () => {
    const volume = new ServiceAccountVolume();
    volume.write('token', 'sa-token');
    volume.write('ca.crt', makeCa(mkdtempSync(join(tmpdir(), 'kube-pki-')), 'cluster-ca').cert);
    volume.write('namespace', kustomization.namespace);
    const env = (name: string) =>
      ({ KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' })[name];
    const config = parseConnectorsConfig(
      ofKind('ConfigMap').data['connectors.yaml'],
      'connectors.yaml',
      env,
      {
        serviceAccountPrefix: volume.prefix,
      },
    );
    expect(config.kubernetes?.credentials.kind).toBe('in-cluster');
    expect(config.kubernetes?.namespace).toBe(kustomization.namespace);
  });
});

const kubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!kubectl)('deploy/kubernetes-in-cluster built by `kubectl kustomize`', () => {
  const built = (): Doc[] => {
    const run = spawnSync('kubectl', ['kustomize', OVERLAY], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`kubectl kustomize failed: ${run.stderr}`);
    return parseAllDocuments(run.stdout).map((d) => d.toJSON());
  };
  // Built in beforeAll, not here: a skipped describe's body still runs when the file is collected.
  let docs: Doc[] = [];
  beforeAll(() => {
    docs = built();
  });
  const find = (kind: string, name: string): Doc =>
    docs.find((d) => d.kind === kind && d.metadata.name === name);

  it('gives objects the API accepts, all in the overlay’s namespace', () => {
    expect(docs.map((d) => `${d.kind}/${d.metadata.name}`).sort()).toEqual([
      'ConfigMap/memdoctor-config',
      'ConfigMap/memdoctor-connectors',
      'Deployment/memdoctor',
      'PodDisruptionBudget/memdoctor',
      'Role/memdoctor-reader',
      'RoleBinding/memdoctor-reader',
      'Service/memdoctor',
      'ServiceAccount/memdoctor',
    ]);
    for (const doc of docs) {
      expect(validate(doc), doc.kind).toEqual([]);
      expect(doc.metadata.namespace).toBe(kustomization.namespace);
    }
  });

  it('runs the pod as the ServiceAccount with its token, keeping the base’s mounts and settings', () => {
    const pod = find('Deployment', 'memdoctor').spec.template.spec;
    expect(pod.serviceAccountName).toBe('memdoctor');
    expect(pod.automountServiceAccountToken).toBe(true);
    expect(pod.volumes.map((v: Doc) => v.name).sort()).toEqual(['connectors', 'tmp']);
    expect(pod.containers[0].volumeMounts.map((m: Doc) => m.mountPath).sort()).toEqual([
      '/etc/memdoctor',
      '/tmp',
    ]);
    expect(pod.containers[0].securityContext.readOnlyRootFilesystem).toBe(true);
    const settings = find('ConfigMap', 'memdoctor-config').data;
    expect(settings.MEMDOCTOR_CONNECTORS).toBe('/etc/memdoctor/connectors.yaml');
    const secret = parse(readFileSync(join(ROOT, 'deploy/kubernetes/secret.example.yaml'), 'utf8'));
    expect(() => loadConfig({ ...settings, ...secret.stringData })).not.toThrow();
  });
});
