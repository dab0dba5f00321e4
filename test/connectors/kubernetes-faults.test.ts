import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kubernetesConnector } from '../../src/connectors/kubernetes.ts';
import { ConnectorError } from '../../src/errors.ts';
import { KUBE_TOKEN, kubeFake, kubeTargetFor, MEMHOG } from './fakes/kube-fake.ts';
import { fixture, type RestFake } from './fakes/rest-fake.ts';

const POD_ID = `${MEMHOG.namespace}/${MEMHOG.name}`;
const POD_PATH = `/api/v1/namespaces/${MEMHOG.namespace}/pods/${MEMHOG.name}`;

describe('Kubernetes connector faults', () => {
  let fake: RestFake;
  let server: string;
  beforeEach(async () => {
    fake = kubeFake();
    server = await fake.start();
  });
  afterEach(async () => {
    expect(fake.violations).toEqual([]);
    await fake.stop();
  });
  const fetch = (resource: string, pod = POD_ID, target = kubeTargetFor(server), container?: string) =>
    kubernetesConnector.fetch({ resource, ids: { pod, ...(container ? { container } : {}) } }, { target });

  it('401 (a token the API server refuses, real Status body) says whose credentials and what to do', async () => {
    const target = kubeTargetFor(server, 'expired-token');
    await expect(fetch('pod', POD_ID, target)).rejects.toThrow(
      new RegExp(
        `^Kubernetes API server answered 401 \\(Unauthorized\\) to GET ${POD_PATH}: it refused the credentials in /\\S+/config \\(an expired token or certificate\\?\\); renew them`,
      ),
    );
  });

  it('403 (real Forbidden Status for pods/log) gives the API server’s words and the RBAC rule needed', async () => {
    fake.override('log', {
      status: 403,
      body: fixture('kubernetes/status-403-pods-log-thoth-459.json'),
      headers: { 'content-type': 'application/json' },
    });
    const error = await fetch(
      'log',
      'thoth-backend-stage/adviser-d65f22b6-4264199469',
      kubeTargetFor(server),
      'main',
    ).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error.message).toBe(
      'Kubernetes API server answered 403 (Forbidden) to GET /api/v1/namespaces/thoth-backend-stage/pods/adviser-d65f22b6-4264199469/log?container=main&limitBytes=8388608&previous=true&tailLines=200: pods "adviser-d65f22b6-4264199469" is forbidden: User "system:serviceaccount:thoth-frontend-stage:user-api" cannot get resource "pods/log" in API group "" in the namespace "thoth-backend-stage". memdoctor needs get on pods/log in namespace thoth-backend-stage: bind the read-only Role of docs/connectors.md to this account.',
    );
    expect(error.message).not.toContain('memdoctor-fake-reader-token');
  });

  it('404 (real NotFound Status) says which pod was not found and how to look', async () => {
    await expect(fetch('pod', 'aiops-e2e/grafana')).rejects.toThrow(
      'Kubernetes API server has no pod grafana in namespace aiops-e2e (404 for GET /api/v1/namespaces/aiops-e2e/pods/grafana: pods "grafana" not found): check the namespace and the name with `kubectl get pods -n <namespace>`.',
    );
  });

  it('another refusal (400 with no Status body) says what was refused and offers the paste', async () => {
    fake.override('log', { status: 400 });
    await expect(fetch('log', POD_ID, kubeTargetFor(server), MEMHOG.container)).rejects.toThrow(
      /^Kubernetes API server refused GET .*\/log\?container=memhog.* \(HTTP 400\); paste the output of `kubectl logs memhog-578d9b5ffd-lwfxj -n aiops-e2e -c memhog --previous --tail=200` instead\.$/,
    );
  });

  it('a kubeconfig the client library will not use is told before anything is sent', async () => {
    const target = kubeTargetFor(server);
    if (target.credentials.kind !== 'kubeconfig') throw new Error('expected a kubeconfig target');
    // client-node refuses plain http to a cluster not marked insecure-skip-tls-verify.
    const file = target.credentials.file;
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^ {4}insecure-skip-tls-verify: true\n/m, ''));
    await expect(fetch('pod', POD_ID, target)).rejects.toThrow(
      new RegExp(
        `^Kubernetes API server: could not send GET ${POD_PATH} \\(HTTP protocol is not allowed when skipTLSVerify is not set or false\\); check the credentials in ${file}\\.$`,
      ),
    );
    expect(fake.seen).toEqual([]);
  });

  it('5xx says the API server did not answer and which kubectl output to paste', async () => {
    fake.override('pod', { status: 503 });
    await expect(fetch('pod')).rejects.toThrow(
      `Kubernetes API server did not answer (HTTP 503 for GET ${POD_PATH}); paste the output of \`kubectl get pod ${MEMHOG.name} -n ${MEMHOG.namespace} -o json\` instead.`,
    );
  });

  it('a slow answer stops at the timeout and offers the paste', async () => {
    fake.override('events', { delayMs: 2_000, body: '{}' });
    const started = Date.now();
    await expect(
      fetch('events', POD_ID, kubeTargetFor(server, KUBE_TOKEN, ', timeoutMs: 200')),
    ).rejects.toThrow(
      /did not answer GET \/api\/v1\/namespaces\/aiops-e2e\/events\?fieldSelector=involvedObject\.name%3Dmemhog-578d9b5ffd-lwfxj&limit=500 \(no answer within 200 ms\); paste the output of `kubectl get events -n aiops-e2e --field-selector involvedObject.name=memhog-578d9b5ffd-lwfxj -o json` instead/,
    );
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('a refused connection offers the paste', async () => {
    const target = kubeTargetFor(server);
    await fake.stop();
    await expect(fetch('pod', POD_ID, target)).rejects.toThrow(
      /did not answer GET \/api\/v1\/namespaces\/aiops-e2e\/pods\/memhog-578d9b5ffd-lwfxj \(ECONNREFUSED\); paste the output/,
    );
    fake = kubeFake();
    await fake.start();
  });

  it('an answer over the size cap is refused, declared or not', async () => {
    fake.override('pod', { body: 'x'.repeat(4096), headers: { 'content-type': 'application/json' } });
    const small = kubeTargetFor(server, KUBE_TOKEN, ', maxBytes: 1024');
    await expect(fetch('pod', POD_ID, small)).rejects.toThrow(
      /answered more than 1024 bytes to GET .*raise kubernetes.maxBytes in connectors.yaml/,
    );
    fake.override('pod', { body: 'x'.repeat(4096), headers: { 'transfer-encoding': 'chunked' } });
    await expect(fetch('pod', POD_ID, small)).rejects.toThrow(/answered more than 1024 bytes/);
  });

  it('an answer that is not JSON (a login page in front of the API server) is not judged', async () => {
    fake.override('pod', { body: '<html>Sign in</html>', headers: { 'content-type': 'application/json' } });
    await expect(fetch('pod')).rejects.toThrow(
      /^Kubernetes API server answered GET \S+ with an HTML page, not the API's JSON \(a login page or a proxy in front of it\?\)/,
    );
    fake.override('pod', {
      body: '{"kind": "Pod", "metadata": {',
      headers: { 'content-type': 'application/json' },
    });
    await expect(fetch('pod')).rejects.toThrow(
      /^Kubernetes API server answered GET \S+ with something that is not JSON \(a proxy in front of it\?\); check the server of/,
    );
  });

  it('sends one request at a time to a cluster', async () => {
    fake.override('pod', {
      delayMs: 100,
      body: fixture('kubernetes/pod-aiops-memhog-oomkilled.json'),
      headers: { 'content-type': 'application/json' },
    });
    const target = kubeTargetFor(server);
    await Promise.all([
      fetch('pod', POD_ID, target),
      fetch('pod', POD_ID, target),
      fetch('pod', POD_ID, target),
    ]);
    expect(fake.seen).toHaveLength(3);
    expect(fake.maxInFlight).toBe(1);
  });

  it('the fake itself answers what the API does not publish with 404/400 and records it', async () => {
    const secrets = await fetch_(`${server}/api/v1/namespaces/aiops-e2e/secrets/db`);
    expect(secrets.status).toBe(404);
    const unfiltered = await fetch_(`${server}/api/v1/namespaces/aiops-e2e/events?watch=true`);
    expect(unfiltered.status).toBe(400);
    expect(fake.violations).toEqual([
      'GET /api/v1/namespaces/aiops-e2e/secrets/db: no such endpoint',
      '/api/v1/namespaces/aiops-e2e/events: events takes no query parameter watch',
    ]);
    fake.violations.length = 0;
  });
});

const fetch_ = (url: string) => globalThis.fetch(url);
