import { mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConnectorsConfig } from '../../../src/connectors/config.ts';
import type { KubernetesTarget } from '../../../src/connectors/kubernetes-config.ts';
import { type Answer, fixture, RestFake } from './rest-fake.ts';

/** The pod of the real `kubectl get pod -o yaml` the fake serves (test/connectors/fixtures/SOURCES.md). */
export const MEMHOG = { namespace: 'aiops-e2e', name: 'memhog-578d9b5ffd-lwfxj', container: 'memhog' };
/**
 * A native Flink TaskManager pod (restartPolicy Never) whose container was OOMKilled and not restarted:
 * its end is in state.terminated and its own log is the run that ended (no previous log).
 */
export const FLINK_TM_POD = {
  namespace: 'aiops-e2e',
  name: 'my-first-flink-cluster-taskmanager-1-1',
  container: 'flink-main-container',
};
/** The bearer token the fake's kubeconfig user carries; any other is answered 401, as an API server does. */
export const KUBE_TOKEN = 'memdoctor-fake-reader-token';

// Names as the API server's routes take them (DNS-1123 labels and subdomains).
const NAME = '([a-z0-9](?:[-a-z0-9.]*[a-z0-9])?)';
const JSON_TYPE = { 'content-type': 'application/json' };

/** 401 unless the request carries the token the API server accepts now. */
function refused(headers: IncomingMessage['headers'], token: string): Answer | undefined {
  if (headers.authorization === `Bearer ${token}`) return undefined;
  return { status: 401, body: fixture('kubernetes/status-401-unauthorized-k3s.json'), headers: JSON_TYPE };
}

/** The API server's NotFound for a pod, as the API conventions' example shows it, for the asked name. */
function podNotFound(name: string): Answer {
  const body = fixture('kubernetes/status-404-pods-grafana-api-conventions.json').replaceAll('grafana', name);
  return { status: 404, body, headers: JSON_TYPE };
}

const isMemhog = (namespace?: string, name?: string) =>
  namespace === MEMHOG.namespace && name === MEMHOG.name;
const isFlinkTm = (namespace?: string, name?: string) =>
  namespace === FLINK_TM_POD.namespace && name === FLINK_TM_POD.name;

/** The pods the fake holds, by name. */
function podAnswer(namespace?: string, name?: string): Answer {
  if (isMemhog(namespace, name))
    return { body: fixture('kubernetes/pod-aiops-memhog-oomkilled.json'), headers: JSON_TYPE };
  if (isFlinkTm(namespace, name))
    return {
      body: fixture('kubernetes/assembled-pod-flink-native-tm-never-oomkilled.json'),
      headers: JSON_TYPE,
    };
  return podNotFound(name ?? '');
}

/** The log of a container that was not restarted: the kubelet has no previous one (400 if asked). */
function endedLog(fake: RestFake, url: URL): Answer {
  const q = url.searchParams;
  if (q.has('previous') || !/^\d+$/.test(q.get('tailLines') ?? '')) {
    fake.violations.push(`log of a container not restarted asked with ${url.search}`);
    return { status: 400, body: '' };
  }
  if (q.has('container') && q.get('container') !== FLINK_TM_POD.container)
    return podNotFound(FLINK_TM_POD.name);
  const lines = fixture('kubernetes/log-datasqrl-780-heap.txt').split('\n').slice(0, -1);
  const tail = lines.slice(-Number(q.get('tailLines')));
  return { body: `${tail.join('\n')}\n`, headers: { 'content-type': 'text/plain' } };
}

/** The event list, filtered by `involvedObject.name=<pod>` as the API server's field selector does. */
function events(fake: RestFake, m: RegExpExecArray, url: URL): Answer {
  const selector = /^involvedObject\.name=([a-z0-9.-]+)$/.exec(url.searchParams.get('fieldSelector') ?? '');
  if (!selector || !/^\d+$/.test(url.searchParams.get('limit') ?? '0')) {
    fake.violations.push(`events asked with ${url.search}`);
    return { status: 400, body: '' };
  }
  const list = JSON.parse(fixture('kubernetes/assembled-events-aiops-memhog.json'));
  list.items = list.items.filter(
    (e: { involvedObject: { name: string; namespace: string } }) =>
      e.involvedObject.name === selector[1] && e.involvedObject.namespace === m[1],
  );
  return { body: JSON.stringify(list), headers: JSON_TYPE };
}

/** The previous container's log, its last `tailLines` lines, as text, as the kubelet serves it. */
function previousLog(fake: RestFake, m: RegExpExecArray, url: URL): Answer {
  const q = url.searchParams;
  if (isFlinkTm(m[1], m[2])) return endedLog(fake, url);
  if (q.get('previous') !== 'true' || !/^\d+$/.test(q.get('tailLines') ?? '')) {
    fake.violations.push(`log asked with ${url.search}`);
    return { status: 400, body: '' };
  }
  if (!isMemhog(m[1], m[2]) || (q.has('container') && q.get('container') !== MEMHOG.container))
    return podNotFound(m[2] ?? '');
  const lines = fixture('kubernetes/log-datasqrl-780-heap.txt').split('\n').slice(0, -1);
  const tail = lines.slice(-Number(q.get('tailLines')));
  return { body: `${tail.join('\n')}\n`, headers: { 'content-type': 'text/plain' } };
}

/**
 * A loopback API server for the three reads the connector makes (GET a pod, list a namespace's
 * events with a field selector, a pod's previous log). Anything else, or a query parameter an
 * endpoint does not take, is a violation answered 400/404. `token` is asked for every request, so a
 * test can rotate it (a service account's token file, read as the API server would accept it).
 */
export function kubeFake(token: () => string = () => KUBE_TOKEN): RestFake {
  const unauthorized = (headers: IncomingMessage['headers']) => refused(headers, token());
  const fake: RestFake = new RestFake([
    {
      name: 'log',
      pattern: new RegExp(`^/api/v1/namespaces/${NAME}/pods/${NAME}/log$`),
      query: ['container', 'previous', 'tailLines', 'limitBytes'],
      answer: (m, url, headers) => unauthorized(headers) ?? previousLog(fake, m, url),
    },
    {
      name: 'pod',
      pattern: new RegExp(`^/api/v1/namespaces/${NAME}/pods/${NAME}$`),
      answer: (m, _url, headers) => unauthorized(headers) ?? podAnswer(m[1], m[2]),
    },
    {
      name: 'events',
      pattern: new RegExp(`^/api/v1/namespaces/${NAME}/events$`),
      query: ['fieldSelector', 'limit'],
      answer: (m, url, headers) => unauthorized(headers) ?? events(fake, m, url),
    },
  ]);
  return fake;
}

/**
 * A kubeconfig in a fresh temporary folder pointing at the fake, as `kubectl config view --flatten`
 * writes one; with `caFile`, the server's certificate is checked against it (an https fake).
 */
export function writeKubeconfig(server: string, token = KUBE_TOKEN, caFile?: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'kubeconfig-')), 'config');
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: fake',
      '  cluster:',
      `    server: ${server}`,
      // client-node sends plain http only to a cluster marked so, as kubectl does.
      caFile ? `    certificate-authority: ${caFile}` : '    insecure-skip-tls-verify: true',
      'contexts:',
      '- name: reader@fake',
      '  context:',
      '    cluster: fake',
      '    user: reader',
      `    namespace: ${MEMHOG.namespace}`,
      'current-context: reader@fake',
      'users:',
      '- name: reader',
      '  user:',
      `    token: ${token}`,
      '',
    ].join('\n'),
  );
  return file;
}

/** The target connectors.yaml gives for a kubeconfig pointed at the fake; `extra` adds settings. */
export function kubeTargetFor(server: string, token = KUBE_TOKEN, extra = ''): KubernetesTarget {
  const yaml = `kubernetes: { kubeconfig: ${writeKubeconfig(server, token)}${extra} }`;
  const target = parseConnectorsConfig(yaml, 'connectors.yaml', () => undefined).kubernetes;
  if (!target) throw new Error('connectors.yaml gave no kubernetes target');
  return target;
}
