import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConnectorsConfig, parseConnectorsConfig } from '../../src/connectors/config.ts';
import { ConfigInvalidError } from '../../src/errors.ts';

const env = (vars: Record<string, string>) => (name: string) => vars[name];
const parse = (yaml: string, vars: Record<string, string> = {}) =>
  parseConnectorsConfig(yaml, 'connectors.yaml', env(vars));

function problem(yaml: string, vars: Record<string, string> = {}): string {
  try {
    parse(yaml, vars);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigInvalidError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('connectors.yaml', () => {
  it('reads the issue example, with defaults for the limits', () => {
    const config = parse(
      'flink: { url: https://flink-jm.internal:8081/, headers: { Authorization: env:FLINK_AUTH } }\nspark: { url: http://spark-history:18080 }\nyarn: { url: http://rm:8088, timeoutMs: 2000 }\n',
      { FLINK_AUTH: 'Bearer abc' },
    );
    expect(config.flink?.url).toBe('https://flink-jm.internal:8081');
    expect(config.flink?.headers.Authorization?.reveal()).toBe('Bearer abc');
    expect(config.spark).toMatchObject({ timeoutMs: 5000, maxBytes: 8 * 1024 * 1024 });
    expect(config.yarn?.timeoutMs).toBe(2000);
  });

  it("reads the issue's dataflow entry, with its defaults and no place for a credential", () => {
    const config = parse('dataflow: { project: acme-data, location: europe-west1 }\n');
    expect(config.dataflow).toEqual({
      project: 'acme-data',
      location: 'europe-west1',
      timeoutMs: 5000,
      maxBytes: 8 * 1024 * 1024,
      maxPages: 10,
    });
    expect(
      parse('dataflow: { project: acme-data, location: europe-west1, endpoint: http://127.0.0.1:9 }').dataflow
        ?.endpoint,
    ).toBe('http://127.0.0.1:9');
  });

  it('never shows a secret when the configuration is printed or logged', () => {
    const config = parse('flink: { url: http://jm:8081, headers: { Authorization: env:FLINK_AUTH } }', {
      FLINK_AUTH: 'Bearer abc',
    });
    expect(JSON.stringify(config)).not.toContain('abc');
    expect(inspect(config, { depth: 5 })).not.toContain('abc');
    expect(`${config.flink?.headers.Authorization}`).toBe('[redacted]');
  });

  it('reads a secret from a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'connectors-'));
    writeFileSync(join(dir, 'token'), 'Bearer from-file\n');
    const config = parse(`yarn: { url: http://rm:8088, headers: { Authorization: "file:${dir}/token" } }`);
    expect(config.yarn?.headers.Authorization?.reveal()).toBe('Bearer from-file');
  });

  it.each([
    [
      'a secret written in the file',
      'flink: { url: http://jm:8081, headers: { Authorization: Bearer abc } }',
      /must be a reference, env:NAME or file:\/absolute\/path, never the secret itself in the file\n {2}→ at flink.headers.Authorization/,
    ],
    [
      'a URL that is not http',
      'spark: { url: ftp://history:18080 }',
      /must be an http:\/\/ or https:\/\/ URL such as http:\/\/flink-jm:8081\n {2}→ at spark.url/,
    ],
    [
      'credentials in the URL',
      'yarn: { url: "http://admin:pw@rm:8088" }',
      /must not carry a user or password: put credentials in headers/,
    ],
    ['a query in the base URL', 'yarn: { url: "http://rm:8088/?user.name=x" }', /without \?query/],
    [
      'a Dataflow project that is no project id',
      'dataflow: { project: p, location: europe-west1 }',
      /must be a Google Cloud project id such as acme-data\n {2}→ at dataflow.project/,
    ],
    [
      'a Dataflow entry without its region',
      'dataflow: { project: acme-data }',
      /is required: the region the jobs run in, such as europe-west1\n {2}→ at dataflow.location/,
    ],
    [
      'a secret in a Dataflow entry',
      'dataflow: { project: acme-data, location: europe-west1, credentials: /etc/key.json }',
      /Unrecognized key: "credentials"\n {2}→ at dataflow/,
    ],
    ['an unknown key', 'flink: { url: http://jm:8081, timeout: 5 }', /Unrecognized key: "timeout"/],
    ['a timeout out of range', 'flink: { url: http://jm:8081, timeoutMs: 10 }', /flink.timeoutMs/],
  ])('refuses %s with a message that says what to change', (_what, yaml, message) => {
    expect(problem(yaml)).toMatch(message);
  });

  it('names the variable a reference needs when it is not set', () => {
    expect(problem('flink: { url: http://jm:8081, headers: { Authorization: env:FLINK_AUTH } }')).toBe(
      'configuration error:\nconnectors.yaml: flink.headers.Authorization names env:FLINK_AUTH, but FLINK_AUTH is not set',
    );
  });

  it('names a file it cannot read', () => {
    expect(() => loadConnectorsConfig('/nonexistent/connectors.yaml', env({}))).toThrow(
      'MEMDOCTOR_CONNECTORS names /nonexistent/connectors.yaml, which cannot be read (ENOENT)',
    );
  });
});

describe('connectors.yaml: kubernetes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kube-settings-'));
  const kubeconfig = join(dir, 'kubeconfig');
  // The shape `kubectl config view --minify --flatten` writes, with two contexts.
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: prod',
      '  cluster: { server: "https://10.0.0.1:6443" }',
      'contexts:',
      '- name: prod-reader',
      '  context: { cluster: prod, user: reader, namespace: streaming }',
      '- name: staging',
      '  context: { cluster: staging, user: reader }',
      'current-context: prod-reader',
      'users:',
      '- name: reader',
      '  user: { token: never-printed }',
      '',
    ].join('\n'),
  );

  it('reads a kubeconfig, its current context’s namespace, and the defaults', () => {
    const config = parse(`kubernetes: { kubeconfig: ${kubeconfig} }`);
    expect(config.kubernetes).toEqual({
      credentials: { kind: 'kubeconfig', file: kubeconfig },
      namespace: 'streaming',
      timeoutMs: 5000,
      maxBytes: 8 * 1024 * 1024,
      tailLines: 200,
    });
  });

  it('takes a context, a default namespace, the namespaces it may read and its limits', () => {
    const config = parse(
      `kubernetes: { kubeconfig: ${kubeconfig}, context: prod-reader, namespace: etl, namespaces: [etl, streaming], timeoutMs: 3000, tailLines: 500 }`,
    );
    expect(config.kubernetes).toMatchObject({
      credentials: { kind: 'kubeconfig', file: kubeconfig, context: 'prod-reader' },
      namespace: 'etl',
      namespaces: ['etl', 'streaming'],
      timeoutMs: 3000,
      tailLines: 500,
    });
  });

  it.each([
    [
      'neither a kubeconfig nor inCluster',
      'kubernetes: { context: prod }',
      /needs kubeconfig: \/absolute\/path\/to\/kubeconfig, or inCluster: true/,
    ],
    [
      'both',
      `kubernetes: { kubeconfig: ${kubeconfig}, inCluster: true }`,
      /give kubeconfig or inCluster: true, not both/,
    ],
    [
      'a relative path',
      'kubernetes: { kubeconfig: ./kubeconfig }',
      /must be the absolute path of a kubeconfig file, e.g. \/etc\/memdoctor\/kubeconfig\n {2}→ at kubernetes.kubeconfig/,
    ],
    [
      'a context with inCluster',
      'kubernetes: { inCluster: true, context: prod }',
      /context names a kubeconfig context; inCluster uses the pod's service account/,
    ],
    [
      'a namespace outside namespaces',
      `kubernetes: { kubeconfig: ${kubeconfig}, namespace: etl, namespaces: [streaming] }`,
      /namespace "etl" is not in namespaces \[streaming\]/,
    ],
    [
      'a namespace that is not a name',
      `kubernetes: { kubeconfig: ${kubeconfig}, namespace: Prod_1 }`,
      /a namespace is lower-case letters, digits and "-"/,
    ],
    [
      'an unknown key',
      `kubernetes: { kubeconfig: ${kubeconfig}, server: https://x }`,
      /Unrecognized key: "server"/,
    ],
  ])('refuses %s with a message that says what to change', (_what, yaml, message) => {
    expect(problem(yaml)).toMatch(message);
  });

  it.each([
    [
      'a file it cannot read',
      () => 'kubernetes: { kubeconfig: /nonexistent/kubeconfig }',
      'connectors.yaml: kubernetes.kubeconfig names /nonexistent/kubeconfig, which cannot be read (ENOENT)',
    ],
    [
      'a context the kubeconfig has not',
      () => `kubernetes: { kubeconfig: ${kubeconfig}, context: prod }`,
      `connectors.yaml: kubernetes.context "prod" is not in ${kubeconfig} (it has: prod-reader, staging)`,
    ],
    [
      'a context whose cluster is missing',
      () => `kubernetes: { kubeconfig: ${kubeconfig}, context: staging }`,
      `context "staging" in ${kubeconfig} names cluster "staging", which the file does not define`,
    ],
    [
      'a file that is not a kubeconfig',
      () => {
        const other = join(dir, 'not-kubeconfig');
        writeFileSync(other, 'flink: { url: http://jm:8081 }\n');
        return `kubernetes: { kubeconfig: ${other} }`;
      },
      `connectors.yaml: kubernetes.kubeconfig names ${join(dir, 'not-kubeconfig')}, which is not a kubeconfig with contexts and clusters; write one with \`kubectl config view --minify --flatten > ${join(dir, 'not-kubeconfig')}\``,
    ],
  ])('names %s, and never prints its credentials', (_what, yaml, message) => {
    const text = problem(yaml());
    expect(text).toBe(`configuration error:\n${message}`);
    expect(text).not.toContain('never-printed');
  });

  // The service account's files: test/connectors/kubernetes-in-cluster.test.ts.
  it('says when memdoctor is not in a pod although inCluster is set', () => {
    expect(problem('kubernetes: { inCluster: true }')).toBe(
      'configuration error:\nconnectors.yaml: kubernetes.inCluster is true, but KUBERNETES_SERVICE_HOST is not set: memdoctor is not running in a pod. Give connectors.yaml: kubernetes.kubeconfig instead.',
    );
  });
});
