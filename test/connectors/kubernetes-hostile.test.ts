import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kubernetesConnector } from '../../src/connectors/kubernetes.ts';
import { ConnectorError } from '../../src/errors.ts';
import { endlessBody, gzipBomb, nestedJson, OtherServer, redirectTo, trickle } from './fakes/hostile.ts';
import { KUBE_TOKEN, kubeFake, kubeTargetFor, MEMHOG } from './fakes/kube-fake.ts';
import { fixture, type RestFake } from './fakes/rest-fake.ts';

const POD_ID = `${MEMHOG.namespace}/${MEMHOG.name}`;
const POD_PATH = `/api/v1/namespaces/${MEMHOG.namespace}/pods/${MEMHOG.name}`;
const POD_JSON = fixture('kubernetes/pod-aiops-memhog-oomkilled.json');
const KUBECTL = `paste the output of \`kubectl get pod ${MEMHOG.name} -n ${MEMHOG.namespace} -o json\` instead.`;

/** What a security review sends the client that holds a kubeconfig's token (issue 35, findings 1, 3 and 7). */
describe('Kubernetes connector under hostile answers', () => {
  let fake: RestFake;
  let server: string;
  let other: OtherServer;
  beforeEach(async () => {
    fake = kubeFake();
    server = await fake.start();
    other = new OtherServer(POD_JSON);
  });
  afterEach(async () => {
    expect(fake.violations).toEqual([]);
    await fake.stop();
    await other.stop();
  });
  let address = '';
  // A deadline far past what the byte cap takes (15 s, so a loaded machine does not reach it): the client
  // under test must end by the cap, never by the deadline.
  const pod = (extra = ', maxBytes: 65536, timeoutMs: 15000') => {
    const target = kubeTargetFor(server, KUBE_TOKEN, extra);
    if (target.credentials.kind === 'kubeconfig')
      address = `the server of ${target.credentials.file} (${server})`;
    return kubernetesConnector.fetch({ resource: 'pod', ids: { pod: POD_ID } }, { target });
  };

  it('an endless body is cut at maxBytes while reading, not buffered to the deadline', async () => {
    fake.override('pod', { respond: endlessBody() });
    await expect(pod()).rejects.toThrow(
      `Kubernetes API server answered more than 65536 bytes to GET ${POD_PATH}; raise kubernetes.maxBytes in connectors.yaml or ${KUBECTL}`,
    );
  });

  it('a gzip bomb is cut at maxBytes of what it inflates to', async () => {
    fake.override('pod', { respond: gzipBomb() });
    await expect(pod()).rejects.toThrow(
      `Kubernetes API server answered more than 65536 bytes (once decompressed) to GET ${POD_PATH}`,
    );
  });

  it('a gzip-compressed real answer is still read', async () => {
    const { gzipSync } = await import('node:zlib');
    fake.override('pod', {
      respond: (res) =>
        res
          .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
          .end(gzipSync(POD_JSON)),
    });
    const got = await pod(', timeoutMs: 15000');
    expect(JSON.parse(got.body).metadata.name).toBe(MEMHOG.name);
  });

  for (const [where, host] of [
    ['another port', '127.0.0.1'],
    ['another host name', 'localhost'],
  ] as const)
    it(`a 302 to ${where} is not followed: the token is not sent there, its answer not diagnosed`, async () => {
      const port = await other.start();
      fake.override('pod', { respond: redirectTo(`http://${host}:${port}${POD_PATH}`) });
      const error = await pod().catch((e) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect(error.message).toBe(
        `Kubernetes API server redirected GET ${POD_PATH} to http://${host}:${port}, outside ${address}; memdoctor only reads the configured address and sends its credentials nowhere else. Check ${address}, or ${KUBECTL}`,
      );
      expect(other.seen).toEqual([]);
      expect(JSON.stringify(other.seen)).not.toContain(KUBE_TOKEN);
    });

  it('a redirect on the same server, under its path, is followed with the token', async () => {
    let first = true;
    fake.override('pod', {
      respond: (res) => {
        if (first) {
          first = false;
          return redirectTo(POD_PATH)(res);
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(POD_JSON);
      },
    });
    const got = await pod();
    expect(JSON.parse(got.body).metadata.name).toBe(MEMHOG.name);
    expect(fake.seen.map((s) => s.headers.authorization)).toEqual([
      `Bearer ${KUBE_TOKEN}`,
      `Bearer ${KUBE_TOKEN}`,
    ]);
  });

  it('deeply nested JSON is refused with a sentence, not "Maximum call stack size exceeded"', async () => {
    fake.override('pod', { body: nestedJson(100_000) });
    await expect(pod(', timeoutMs: 15000')).rejects.toThrow(
      `Kubernetes API server answered GET ${POD_PATH} with JSON nested more than 128 levels deep, which no answer of its API is; memdoctor did not read it.`,
    );
  });

  it('an HTML login page in front of the API server is named as one, not "Unexpected token"', async () => {
    fake.override('pod', {
      body: fixture('html/knoxsso-login.html'),
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
    const error = await pod().catch((e) => e);
    expect(error.message).toBe(
      `Kubernetes API server answered GET ${POD_PATH} with an HTML page, not the API's JSON (a login page or a proxy in front of it?); check ${address}, or ${KUBECTL}`,
    );
  });

  it('a body that trickles in ends at the deadline with a timeout', async () => {
    fake.override('pod', { respond: trickle() });
    const started = Date.now();
    await expect(pod(', timeoutMs: 300')).rejects.toThrow(
      `Kubernetes API server did not answer GET ${POD_PATH} (no answer within 300 ms); ${KUBECTL}`,
    );
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
