import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseConnectorsConfig } from '../../src/connectors/config.ts';
import { kubernetesConnector } from '../../src/connectors/kubernetes.ts';
import type { KubernetesTarget } from '../../src/connectors/kubernetes-config.ts';
import { KUBE_TOKEN, kubeFake, MEMHOG, writeKubeconfig } from './fakes/kube-fake.ts';
import type { RestFake } from './fakes/rest-fake.ts';
import { makeCa, makeServerCert, type Pem, ServiceAccountVolume } from './fakes/service-account.ts';

const POD_PATH = `/api/v1/namespaces/${MEMHOG.namespace}/pods/${MEMHOG.name}`;

// One cluster CA and the API server's certificate signed by it, made by openssl for this run; and
// another CA, which did not sign it.
let clusterCa: Pem;
let server: Pem;
let otherCa: Pem;
let pki: string;
beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'kube-pki-'));
  pki = dir;
  clusterCa = makeCa(dir, 'cluster-ca');
  server = makeServerCert(dir, 'cluster-ca');
  otherCa = makeCa(dir, 'other-ca');
});

/** A pod's volume as the kubelet mounts it: a token, the cluster CA, the pod's namespace. */
function mounted(): ServiceAccountVolume {
  const volume = new ServiceAccountVolume();
  volume.write('token', 'sa-token-1');
  volume.write('ca.crt', clusterCa.cert);
  volume.write('namespace', MEMHOG.namespace);
  return volume;
}

const inPod = (port: string) => (name: string) =>
  ({ KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: port })[name];

function targetOf(yaml: string, env: (name: string) => string | undefined, volume: ServiceAccountVolume) {
  const config = parseConnectorsConfig(yaml, 'connectors.yaml', env, { serviceAccountPrefix: volume.prefix });
  if (!config.kubernetes) throw new Error('connectors.yaml gave no kubernetes target');
  return config.kubernetes;
}

describe('inCluster: the real client library’s loadFromCluster against an HTTPS fake API server', () => {
  let volume: ServiceAccountVolume;
  let fake: RestFake;
  let target: KubernetesTarget;
  /** The token the fake API server accepts: the token file's content now, unless a test revokes it. */
  let accepted: (() => string) | undefined;
  beforeEach(async () => {
    volume = mounted();
    accepted = undefined;
    fake = kubeFake(() => (accepted ?? (() => volume.token()))());
    const port = new URL(await fake.start(server)).port;
    // loadFromCluster reads the API server's address from the process environment itself.
    vi.stubEnv('KUBERNETES_SERVICE_HOST', '127.0.0.1');
    vi.stubEnv('KUBERNETES_SERVICE_PORT', port);
    target = targetOf('kubernetes: { inCluster: true }', (name) => process.env[name], volume);
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    expect(fake.violations).toEqual([]);
    await fake.stop();
  });
  const fetch = (resource: string, ids: Record<string, string>) =>
    kubernetesConnector.fetch({ resource, ids }, { target });

  it('reads the pod over HTTPS checked against ca.crt, with the token file as bearer, in the pod’s namespace', async () => {
    expect(target.credentials).toEqual({ kind: 'in-cluster', pathPrefix: volume.prefix });
    expect(target.namespace).toBe(MEMHOG.namespace);
    const got = await fetch('pod', { pod: MEMHOG.name });
    expect(got.from.path).toBe(POD_PATH);
    expect(got.citations).toContain('containerStatuses[memhog].lastState.terminated.reason = OOMKilled');
    expect(fake.seen.map((s) => s.headers.authorization)).toEqual(['Bearer sa-token-1']);
  });

  it('reads the events and the previous log the same way', async () => {
    await fetch('events', { pod: MEMHOG.name });
    const log = await fetch('log', { pod: MEMHOG.name, container: MEMHOG.container });
    expect(log.paste).toContain('java.lang.OutOfMemoryError: Java heap space');
    expect(fake.seen.map((s) => s.path.split('?')[0])).toEqual([
      `/api/v1/namespaces/${MEMHOG.namespace}/events`,
      `${POD_PATH}/log`,
    ]);
  });

  it('sends the rotated token at once after the kubelet replaces the file, the old one being refused', async () => {
    await fetch('pod', { pod: MEMHOG.name });
    volume.write('token', 'sa-token-2');
    await fetch('pod', { pod: MEMHOG.name });
    volume.write('token', 'sa-token-3');
    await fetch('events', { pod: MEMHOG.name });
    expect(fake.seen.map((s) => s.headers.authorization)).toEqual([
      'Bearer sa-token-1',
      'Bearer sa-token-2',
      'Bearer sa-token-3',
    ]);
  });

  it('(why a configuration per request: one KubeConfig kept would send the old token for 60 s)', async () => {
    const { CoreV1Api, KubeConfig } = await import('@kubernetes/client-node');
    const kept = new KubeConfig();
    kept.loadFromCluster(volume.prefix);
    const api = kept.makeApiClient(CoreV1Api);
    await api.readNamespacedPod({ name: MEMHOG.name, namespace: MEMHOG.namespace });
    volume.write('token', 'sa-token-2');
    await expect(api.readNamespacedPod({ name: MEMHOG.name, namespace: MEMHOG.namespace })).rejects.toThrow(
      /HTTP-Code: 401/,
    );
    expect(fake.seen.map((s) => s.headers.authorization)).toEqual(['Bearer sa-token-1', 'Bearer sa-token-1']);
  });

  it('a token the API server no longer takes: says the service account’s token was refused and what to do', async () => {
    accepted = () => 'a-token-of-a-recreated-service-account';
    await expect(fetch('pod', { pod: MEMHOG.name })).rejects.toThrow(
      `Kubernetes API server answered 401 (Unauthorized) to GET ${POD_PATH}: it refused the pod's service account token. The token file is read anew for every request, so a rotated token is not the cause: was the ServiceAccount deleted or recreated since the pod started? Restart the pod to mount a token of the current one.`,
    );
  });

  it('an API server whose certificate the CA did not sign: nothing is sent, and the message says why', async () => {
    volume.write('ca.crt', otherCa.cert);
    await expect(fetch('pod', { pod: MEMHOG.name })).rejects.toThrow(
      `Kubernetes API server: GET ${POD_PATH} was not sent: the server's certificate is not one ${volume.file('ca.crt')} (the cluster's CA, which the kubelet mounts) vouches for (UNABLE_TO_VERIFY_LEAF_SIGNATURE). Check that the server is the cluster's API server and that the CA is the cluster's.`,
    );
    expect(fake.seen).toEqual([]);
  });

  it('a token file gone after start-up: says so before sending anything', async () => {
    rmSync(volume.file('token'));
    await expect(fetch('pod', { pod: MEMHOG.name })).rejects.toThrow(
      /^Kubernetes API server: could not send GET \S+ \(ENOENT: no such file or directory, open '\S+\/token'\); check the pod's service account token\.$/,
    );
    expect(fake.seen).toEqual([]);
  });
});

describe('a kubeconfig’s certificate-authority is checked the same way (an HTTPS API server)', () => {
  let fake: RestFake;
  afterEach(async () => {
    expect(fake.violations).toEqual([]);
    await fake.stop();
  });
  async function fetchWith(pem: Pem, ca: string) {
    fake = kubeFake();
    const url = await fake.start(pem);
    const kubeconfig = writeKubeconfig(url, KUBE_TOKEN, join(pki, ca));
    const yaml = `kubernetes: { kubeconfig: ${kubeconfig} }`;
    const target = parseConnectorsConfig(yaml, 'connectors.yaml', () => undefined).kubernetes;
    if (!target) throw new Error('connectors.yaml gave no kubernetes target');
    return kubernetesConnector.fetch({ resource: 'pod', ids: { pod: MEMHOG.name } }, { target });
  }

  it('reads through the CA that signed the server’s certificate', async () => {
    expect((await fetchWith(server, 'cluster-ca.crt')).from.path).toBe(POD_PATH);
  });

  it('refuses another CA’s, sending nothing, and names the kubeconfig', async () => {
    await expect(fetchWith(server, 'other-ca.crt')).rejects.toThrow(
      /^Kubernetes API server: GET \S+ was not sent: the server's certificate is not one the certificate-authority of the cluster in \S+\/config vouches for \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)\./,
    );
    expect(fake.seen).toEqual([]);
  });

  it('refuses a certificate for another host', async () => {
    const elsewhere = makeServerCert(mkdtempSync(join(pki, 'elsewhere-')), '../cluster-ca', '10.96.0.1');
    await expect(fetchWith(elsewhere, 'cluster-ca.crt')).rejects.toThrow(
      /the server's certificate is for another host than the one asked \(ERR_TLS_CERT_ALTNAME_INVALID\)/,
    );
    expect(fake.seen).toEqual([]);
  });
});

describe('inCluster: start-up says what is missing and what to change', () => {
  const PORT = '443';
  let volume: ServiceAccountVolume;
  beforeEach(() => {
    volume = mounted();
  });
  function problem(yaml: string, env = inPod(PORT)): string {
    try {
      targetOf(yaml, env, volume);
    } catch (error) {
      return (error as Error).message.replace(volume.prefix, '<prefix>');
    }
    throw new Error('expected the configuration to be refused');
  }
  const SA = '<prefix>/var/run/secrets/kubernetes.io/serviceaccount';
  const WHERE = 'configuration error:\nconnectors.yaml: kubernetes';
  const AUTOMOUNT =
    'the pod runs with automountServiceAccountToken: false (in its spec or its ServiceAccount). Set it to true in the pod spec, as deploy/kubernetes-in-cluster does.';

  it('takes a mounted volume; `namespace` overrides the pod’s own', () => {
    expect(targetOf('kubernetes: { inCluster: true }', inPod(PORT), volume).namespace).toBe(MEMHOG.namespace);
    expect(targetOf('kubernetes: { inCluster: true, namespace: etl }', inPod(PORT), volume).namespace).toBe(
      'etl',
    );
  });

  it.each([
    ['KUBERNETES_SERVICE_HOST', { KUBERNETES_SERVICE_PORT: PORT }],
    ['KUBERNETES_SERVICE_PORT', { KUBERNETES_SERVICE_HOST: '10.96.0.1' }],
  ])('no %s in the environment: not in a pod', (name, vars: Record<string, string>) => {
    expect(problem('kubernetes: { inCluster: true }', (n) => vars[n])).toBe(
      `${WHERE}.inCluster is true, but ${name} is not set: memdoctor is not running in a pod. Give connectors.yaml: kubernetes.kubeconfig instead.`,
    );
  });

  it('a port the library would speak plain HTTP to', () => {
    expect(problem('kubernetes: { inCluster: true }', inPod('8080'))).toMatch(
      /KUBERNETES_SERVICE_PORT is "8080": the client library reaches the API server over HTTPS only on another port/,
    );
  });

  it.each([
    ['token', () => rmSync(volume.file('token'))],
    ['ca.crt', () => rmSync(volume.file('ca.crt'))],
    ['token', () => rmSync(volume.dir, { recursive: true })],
  ])('no %s (the volume not mounted): names the file and automountServiceAccountToken', (file, remove) => {
    remove();
    expect(problem('kubernetes: { inCluster: true }')).toBe(
      `${WHERE}.inCluster is true, but there is no ${SA}/${file} (ENOENT): ${AUTOMOUNT}`,
    );
  });

  it.each(['token', 'ca.crt'] as const)('a %s that cannot be read: says why and what governs it', (file) => {
    rmSync(volume.file(file));
    // A folder where the file should be: unreadable even to root, which these tests may run as.
    mkdirSync(volume.file(file));
    expect(problem('kubernetes: { inCluster: true }')).toBe(
      `${WHERE}.inCluster is true, but ${SA}/${file} cannot be read (EISDIR): memdoctor's user must be able to read the service account volume (its defaultMode, the pod's runAsUser and fsGroup).`,
    );
  });

  it.each([
    ['empty', '', 'empty'],
    ['ending in a line break', 'sa-token\n', 'not one token (it has spaces or a line break)'],
  ])('a token file %s', (_what, text, said) => {
    volume.write('token', text);
    expect(problem('kubernetes: { inCluster: true }')).toBe(
      `${WHERE}.inCluster is true, but ${SA}/token is ${said}: mount the kubelet's projected token there, not a file written by hand.`,
    );
  });

  it.each([
    ['text', 'not a certificate\n'],
    ['a key', () => clusterCa.key],
    ['a truncated certificate', () => clusterCa.cert.slice(0, 200)],
  ])('a ca.crt that is %s, not a certificate', (_what, text) => {
    volume.write('ca.crt', typeof text === 'string' ? text : text());
    expect(problem('kubernetes: { inCluster: true }')).toBe(
      `${WHERE}.inCluster is true, but ${SA}/ca.crt is not a PEM certificate, so the API server's certificate could not be checked: mount the cluster's CA there (the kube-root-ca.crt ConfigMap holds it).`,
    );
  });

  it('no namespace file: asks for `namespace`, and takes it', () => {
    rmSync(volume.file('namespace'));
    expect(problem('kubernetes: { inCluster: true }')).toBe(
      `${WHERE}.inCluster is true, but /var/run/secrets/kubernetes.io/serviceaccount/namespace is missing: set connectors.yaml: kubernetes.namespace for pods given without one.`,
    );
    expect(targetOf('kubernetes: { inCluster: true, namespace: etl }', inPod(PORT), volume).namespace).toBe(
      'etl',
    );
  });

  it('the pod’s own namespace outside `namespaces`', () => {
    expect(problem('kubernetes: { inCluster: true, namespaces: [etl] }')).toBe(
      `${WHERE}: the pod's own namespace "${MEMHOG.namespace}" is not in namespaces [etl]; set connectors.yaml: kubernetes.namespace to one of them.`,
    );
  });
});
