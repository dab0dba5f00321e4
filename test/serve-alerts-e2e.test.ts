import { execFileSync } from 'node:child_process';
import { createHmac, randomUUID, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SnsTransport } from '../src/alerts/sns.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { alertsConfigOf, buildSlackService, listenWithAlerts, type SlackService } from '../src/serve.ts';
import { alertIntakeOf } from '../src/serve-incidents.ts';
import { fixture } from './alerts/support.ts';
import type { AwsFake } from './connectors/fakes/aws-fake.ts';
import { GLUE_JOB, GLUE_REGION, GLUE_RUN, glueFake } from './connectors/fakes/aws-systems.ts';
import { DF_JOB, DF_LOCATION, DF_PROJECT, dataflowFake } from './connectors/fakes/dataflow-fake.ts';
import { testServiceAccount } from './connectors/fakes/google-credentials.ts';
import { FLINK_TM_POD, kubeFake, writeKubeconfig } from './connectors/fakes/kube-fake.ts';
import type { RestFake } from './connectors/fakes/rest-fake.ts';
import { SPARK_YARN_APP, sparkFake, yarnFake } from './connectors/fakes/systems.ts';
import { useTestCredentials } from './connectors/glue-support.ts';
import { FakeSlack, type StoredMessage, TEAM_ID } from './slack/support/fake-slack.ts';
import { BOT_TOKEN, freePort, SIGNING_SECRET, waitFor } from './slack/support/harness.ts';
import { deletePrefix, newRedis, randomPrefix, TEST_REDIS_URL } from './support/redis.ts';
import { TcpProxy } from './support/tcp-proxy.ts';

/**
 * Issue 38's "done when", from outside: each sender's request, signed as the sender signs it, into
 * the receivers `memdoctor serve` mounts (startSlack's own wiring: buildSlackService, alertIntakeOf,
 * listenWithAlerts), the real Redis intake and worker, the connectors reading the loopback fakes, and
 * the thread in the fake Slack. The payloads are the sources' published samples (test/alerts/fixtures),
 * with only the fields that name the job set to the job the fakes serve.
 */

const log = createLogger('silent');
const METRICS_TOKEN = 'scrape-token-alerts-e2e';
const TOPIC = 'arn:aws:sns:us-west-2:123456789012:MyTopic';
const CERT_URL =
  'https://sns.us-west-2.amazonaws.com/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem';
const SECRETS: Record<string, string> = {
  E2E_AM_TOKEN: 'am-e2e-token',
  E2E_PD_SECRET: 'pd-e2e-secret',
  E2E_GCP_TOKEN: 'gcp-e2e-token',
};
const CHANNELS = { flink: 'C0FLINK01', glue: 'C0GLUE001', spark: 'C0SPARK01', dataflow: 'C0GCP0001' };
const POD = `${FLINK_TM_POD.namespace}/${FLINK_TM_POD.name}`;

const ALERTS_YAML = `
receivers:
  alertmanager: { bearer: env:E2E_AM_TOKEN }
  pagerduty: { secrets: [env:E2E_PD_SECRET] }
  sns: { topics: ["${TOPIC}"] }
  gcp: { token: env:E2E_GCP_TOKEN }
routes:
  - name: flink-oom
    channel: ${CHANNELS.flink}
    when: { source: alertmanager, labels.alertname: KubePodOOMKilled }
    checks:
      kubernetes: "{{labels.namespace}}/{{labels.pod}}"
  - name: glue-failures
    channel: ${CHANNELS.glue}
    when: { kind: eventbridge-glue-job-state-change }
    checks:
      glue: "{{detail.jobName}}/{{detail.jobRunId}}"
  - name: spark-pages
    channel: ${CHANNELS.spark}
    when: { source: pagerduty }
    checks:
      spark: "{{data.incident_key}}"
      yarn: "{{data.incident_key}}"
  - name: dataflow
    channel: ${CHANNELS.dataflow}
    when: { source: gcp-monitoring }
    checks:
      dataflow: "{{resource.labels.job_id}}"
`;

const slack = new FakeSlack(BOT_TOKEN);
const kube: RestFake = kubeFake();
const glue: AwsFake = glueFake();
const spark: RestFake = sparkFake(undefined, 'spark/assembled-allexecutors-removed-for-memory.json');
const yarn: RestFake = yarnFake('yarn/assembled-app-killed-beyond-physical.json', SPARK_YARN_APP);
const account = testServiceAccount(DF_PROJECT);
const dataflow: RestFake = dataflowFake(undefined, account);
const prefix = randomPrefix();
let service: SlackService | undefined;
/** serve reaches Redis through it, so a test can take Redis away from serve alone. */
let redisProxy: TcpProxy | undefined;
let port = 0;
let keyPem = '';
let certPem = '';
const certificateFetches: string[] = [];

/** A key and a self-signed certificate for sns.amazonaws.com, trusted only through the test's transport. */
function makeSnsCertificate(): void {
  const dir = mkdtempSync(join(tmpdir(), 'alerts-e2e-sns-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-subj',
      '/CN=sns.amazonaws.com',
      '-addext',
      'subjectAltName=DNS:sns.amazonaws.com',
    ],
    { stdio: 'ignore' },
  );
  keyPem = readFileSync(join(dir, 'key.pem'), 'utf8');
  certPem = readFileSync(join(dir, 'cert.pem'), 'utf8');
}

const SNS: SnsTransport = {
  fetchCertificate: async (url) => {
    certificateFetches.push(url);
    return certPem;
  },
  confirm: async () => {},
};

function writeFile(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'serve-alerts-e2e-')), name);
  writeFileSync(file, text);
  return file;
}

function connectorsYaml(urls: Record<'kube' | 'glue' | 'spark' | 'yarn' | 'dataflow', string>): string {
  return writeFile(
    'connectors.yaml',
    [
      `kubernetes: { kubeconfig: ${writeKubeconfig(urls.kube)} }`,
      `glue: { region: ${GLUE_REGION}, endpoint: "${urls.glue}", maxAttempts: 1 }`,
      `spark: { url: "${urls.spark}" }`,
      `yarn: { url: "${urls.yarn}" }`,
      `dataflow: { project: ${DF_PROJECT}, location: ${DF_LOCATION}, endpoint: "${urls.dataflow}", monitoringEndpoint: "${urls.dataflow}" }`,
      'access:',
      `  kubernetes: { showIn: [${CHANNELS.flink}] }`,
      `  glue: { showIn: [${CHANNELS.glue}] }`,
      `  spark: { showIn: [${CHANNELS.spark}] }`,
      `  yarn: { showIn: [${CHANNELS.spark}] }`,
      `  dataflow: { showIn: [${CHANNELS.dataflow}] }`,
      '',
    ].join('\n'),
  );
}

async function serveConfig(connectors: string): Promise<Config> {
  return loadConfig({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    MEMDOCTOR_ALLOW_HTTP_LOOPBACK: 'true',
    MEMDOCTOR_METRICS_TOKEN: METRICS_TOKEN,
    MEMDOCTOR_ENGINE_THREADS: '1',
    MEMDOCTOR_ALERTS: writeFile('alerts.yaml', ALERTS_YAML),
    MEMDOCTOR_CONNECTORS: connectors,
    REDIS_URL: redisProxy?.url ?? TEST_REDIS_URL,
    MEMDOCTOR_REDIS_PREFIX: prefix,
    PORT: String(await freePort()),
  });
}

beforeAll(async () => {
  makeSnsCertificate();
  // The connectors' SDKs read their credentials from the environment, as in a deployment.
  useTestCredentials();
  vi.stubEnv('GOOGLE_APPLICATION_CREDENTIALS', account.file);
  await slack.start();
  redisProxy = await TcpProxy.start(Number(new URL(TEST_REDIS_URL).port || 6379));
  const [kubeUrl, glueUrl, sparkUrl, yarnUrl, dataflowUrl] = await Promise.all(
    [kube, glue, spark, yarn, dataflow].map((fake) => fake.start()),
  );
  const config = await serveConfig(
    connectorsYaml({
      kube: kubeUrl ?? '',
      glue: glueUrl ?? '',
      spark: sparkUrl ?? '',
      yarn: yarnUrl ?? '',
      dataflow: dataflowUrl ?? '',
    }),
  );
  const alertsConfig = alertsConfigOf(config, (name) => SECRETS[name]);
  if (!alertsConfig) throw new Error('MEMDOCTOR_ALERTS not read');
  // As startSlack wires it, with the SNS transport that trusts the test's certificate.
  service = await buildSlackService(config, log);
  const intake = alertIntakeOf(service, config, log);
  await listenWithAlerts(service, config.PORT, log, { config: alertsConfig, intake, sns: SNS });
  port = config.PORT;
}, 30_000);

afterAll(async () => {
  await service?.stop();
  await redisProxy?.cut();
  const redis = newRedis();
  await deletePrefix(redis, prefix);
  redis.disconnect();
  await Promise.all([slack, kube, glue, spark, yarn, dataflow].map((fake) => fake.stop()));
  vi.unstubAllEnvs();
  for (const fake of [kube, glue, spark, yarn, dataflow]) expect(fake.violations).toEqual([]);
  expect(slack.rejections).toEqual([]);
});

// The senders' requests -------------------------------------------------------------------------

/** Alertmanager's v4 sample, its one alert the kube-state-metrics OOMKilled alert for the TaskManager pod. */
function alertmanagerBody(endsAt?: string): string {
  const message = fixture<{ alerts: Record<string, unknown>[]; commonLabels: unknown }>(
    'alertmanager-v4-firing.json',
  );
  const labels = {
    alertname: 'KubePodOOMKilled',
    namespace: FLINK_TM_POD.namespace,
    pod: FLINK_TM_POD.name,
    container: FLINK_TM_POD.container,
    severity: 'warning',
  };
  const status = endsAt ? 'resolved' : 'firing';
  const alert = {
    ...message.alerts[0],
    labels,
    annotations: { summary: 'TaskManager OOMKilled' },
    status,
    ...(endsAt ? { endsAt } : {}),
  };
  return JSON.stringify({ ...message, status, alerts: [alert], commonLabels: labels });
}

/** EventBridge's Glue Job State Change sample (FAILED) for the run the fake serves, as SNS delivers it. */
function glueFailedMessage(): string {
  const sample = fixture<{ detail: Record<string, string> }>('eventbridge-glue-job-failed.json');
  const named = (text: string) =>
    text.replaceAll(sample.detail.jobName ?? '', GLUE_JOB).replaceAll(sample.detail.jobRunId ?? '', GLUE_RUN);
  const detail = Object.fromEntries(Object.entries(sample.detail).map(([k, v]) => [k, named(v)]));
  return JSON.stringify({ ...sample, region: GLUE_REGION, detail });
}

/** AWS's Notification sample carrying `message`, signed as SNS signs (SignatureVersion 1). */
function snsBody(message: string, timestamp = new Date().toISOString()): string {
  const sample = fixture<Record<string, string>>('sns-notification.json');
  const m: Record<string, string> = {
    ...sample,
    Message: message,
    Timestamp: timestamp,
    TopicArn: TOPIC,
    SignatureVersion: '1',
    SigningCertURL: CERT_URL,
  };
  const signed = ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
    .map((k) => `${k}\n${m[k]}\n`)
    .join('');
  m.Signature = sign('RSA-SHA1', Buffer.from(signed), keyPem).toString('base64');
  return JSON.stringify(m);
}

/** PagerDuty's v3 sample as incident.triggered now, its incident key the Spark application on YARN. */
function pagerDutyBody(
  occurredAt = new Date().toISOString(),
  change: { type: string; id: string } = { type: 'incident.triggered', id: '' },
): string {
  const sample = fixture<{ event: Record<string, unknown> & { data: Record<string, unknown> } }>(
    'pagerduty-incident-priority-updated.json',
  );
  const data = { ...sample.event.data, incident_key: SPARK_YARN_APP, title: 'Spark job failed' };
  const event = { ...sample.event, event_type: change.type, occurred_at: occurredAt, data };
  return JSON.stringify({ event: change.id ? { ...event, id: change.id } : event });
}

/** PagerDuty's v1 signature: HMAC-SHA256 of the raw body, hex. */
const pdSignature = (body: string, secret: string) =>
  `v1=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** Google's incident sample, on the Dataflow job the fake serves. */
function gcpBody(incidentId?: string): string {
  const sample = fixture<{ incident: Record<string, unknown> }>('gcp-incident-open.json');
  const resource = {
    type: 'dataflow_job',
    labels: { project_id: DF_PROJECT, job_id: DF_JOB, region: DF_LOCATION },
  };
  const incident = { ...sample.incident, resource, ...(incidentId ? { incident_id: incidentId } : {}) };
  return JSON.stringify({ ...sample, incident });
}

async function post(path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

// What reached Slack ----------------------------------------------------------------------------

const textOf = (m: StoredMessage | undefined) => JSON.stringify(m?.blocks ?? []);
const rootsIn = (channel: string) => slack.messages.filter((m) => m.channel === channel && !m.thread_ts);
const repliesTo = (root: StoredMessage) => slack.messages.filter((m) => m.thread_ts === root.ts);
const hasButtons = (m: StoredMessage | undefined) =>
  (m?.blocks ?? []).some((b) => (b as { type?: string }).type === 'actions');

/**
 * Waits for the channel's thread to hold the diagnosis and the walkthrough's first step, then checks
 * there is one root, that the step is the first of `playbook`'s walkthrough kept for that thread
 * (in Redis, as serve keeps it), and returns the root and the diagnosis text.
 */
async function threadIn(channel: string, playbook: string) {
  const [answer, step] = await waitFor(() => {
    const root = rootsIn(channel)[0];
    const replies = root ? repliesTo(root) : [];
    return replies.length >= 2 && replies;
  }, 20_000);
  const [root, ...others] = rootsIn(channel);
  expect(others).toEqual([]);
  expect(hasButtons(step)).toBe(true);
  const walkthrough = await service?.deps.walkthroughs.findByThread(
    { workspace: TEAM_ID, conversation: channel },
    root?.ts ?? '',
  );
  expect(walkthrough?.playbook.id).toBe(playbook);
  expect(walkthrough?.path).toEqual([]);
  expect(walkthrough?.current).toBe(walkthrough?.procedure.start);
  return { root, answer: textOf(answer), step };
}

/** The same request sent again (the sender's retry) is taken as a duplicate and adds nothing. */
async function redelivered(send: () => Promise<{ status: number; json: unknown }>) {
  expect(await send()).toEqual({ status: 200, json: { queued: 0, duplicates: 1, unrouted: 0 } });
}

async function scrape(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return response.text();
}

describe('an alert from each source, through memdoctor serve, to its thread with a cited diagnosis', () => {
  it('a Flink TaskManager pod OOMKilled (Alertmanager)', async () => {
    const send = () =>
      post('/alerts/alertmanager', alertmanagerBody(), { authorization: 'Bearer am-e2e-token' });
    expect(await send()).toEqual({ status: 200, json: { queued: 1, duplicates: 0, unrouted: 0 } });
    const { root, answer } = await threadIn(CHANNELS.flink, 'flink-container-oom-killed');
    expect(textOf(root)).toContain('From Alertmanager');
    expect(answer).toContain(`Fetched from kubernetes for ${POD}`);
    expect(answer).toContain('containerStatuses[flink-main-container].state.terminated.reason = OOMKilled');
    expect(answer).toContain('flink-container-oom-killed');
    await redelivered(send);
  });

  it('a Glue job run FAILED with a heap OOM (EventBridge via SNS)', async () => {
    const message = glueFailedMessage();
    expect(await post('/alerts/sns', snsBody(message))).toEqual({
      status: 200,
      json: { queued: 1, duplicates: 0, unrouted: 0 },
    });
    const { answer } = await threadIn(CHANNELS.glue, 'glue-heap-oom');
    expect(answer).toContain(`Fetched from glue for ${GLUE_JOB}/${GLUE_RUN}`);
    expect(answer).toContain('JobRun.JobRunState = FAILED');
    expect(answer).toContain('glue-heap-oom');
    // SNS redelivers the same message id, signed afresh.
    await redelivered(() => post('/alerts/sns', snsBody(message)));
    expect(certificateFetches).toEqual([CERT_URL]);
  });

  it('a Spark application on YARN (PagerDuty)', async () => {
    const body = pagerDutyBody();
    const send = () =>
      post('/alerts/pagerduty', body, { 'x-pagerduty-signature': pdSignature(body, 'pd-e2e-secret') });
    expect(await send()).toEqual({ status: 200, json: { queued: 1, duplicates: 0, unrouted: 0 } });
    const { answer } = await threadIn(CHANNELS.spark, 'spark-executor-overhead-killed');
    expect(answer).toContain(`Fetched from spark for ${SPARK_YARN_APP}`);
    expect(answer).toContain(`Fetched from yarn for ${SPARK_YARN_APP}`);
    expect(answer).toContain('app.state = FINISHED, app.finalStatus = FAILED');
    expect(answer).toContain('spark-executor-overhead-killed');
    await redelivered(send);
  });

  it('a Dataflow Python job (Cloud Monitoring)', async () => {
    const send = () => post('/alerts/gcp?token=gcp-e2e-token', gcpBody());
    expect(await send()).toEqual({ status: 200, json: { queued: 1, duplicates: 0, unrouted: 0 } });
    const { answer } = await threadIn(CHANNELS.dataflow, 'beam-python-leak');
    expect(answer).toContain(`Fetched from dataflow for ${DF_JOB}`);
    expect(answer).toContain('job.currentState = JOB_STATE_FAILED');
    expect(answer).toContain('beam-python-leak');
    await redelivered(send);
  });

  it('forged and replayed requests are refused, counted, and post nothing', async () => {
    const before = slack.messages.length;
    const am = alertmanagerBody();
    expect((await post('/alerts/alertmanager', am, { authorization: 'Bearer forged' })).status).toBe(403);
    expect((await post('/alerts/alertmanager', am)).status).toBe(401);
    // SNS: a message changed after it was signed, and a genuine one replayed after the window.
    const tampered = snsBody(glueFailedMessage()).replace('FAILED', 'TIMEOUT');
    expect((await post('/alerts/sns', tampered)).status).toBe(403);
    const old = snsBody(glueFailedMessage(), new Date(Date.now() - 2 * 3600 * 1000).toISOString());
    expect((await post('/alerts/sns', old)).status).toBe(403);
    // PagerDuty: signed with another secret, and a genuine delivery replayed hours later.
    const pd = pagerDutyBody();
    const forged = { 'x-pagerduty-signature': pdSignature(pd, 'not-the-secret') };
    expect((await post('/alerts/pagerduty', pd, forged)).status).toBe(403);
    const stale = pagerDutyBody(new Date(Date.now() - 2 * 3600 * 1000).toISOString());
    const signed = { 'x-pagerduty-signature': pdSignature(stale, 'pd-e2e-secret') };
    expect((await post('/alerts/pagerduty', stale, signed)).status).toBe(403);
    expect((await post('/alerts/gcp?token=forged', gcpBody())).status).toBe(403);

    const metrics = await scrape();
    for (const line of [
      'receiver="alertmanager",reason="forbidden"} 1',
      'receiver="alertmanager",reason="unauthenticated"} 1',
      'receiver="pagerduty",reason="stale"} 1',
      'receiver="sns",reason="forbidden"} 1',
      'receiver="sns",reason="stale"} 1',
      'receiver="pagerduty",reason="forbidden"} 1',
      'receiver="gcp-monitoring",reason="forbidden"} 1',
    ])
      expect(metrics).toContain(`memdoctor_alert_requests_refused_total{${line}`);
    // Nothing was stored for them (nor for the redeliveries): four queued in all, four threads opened,
    // nothing waiting, and Slack unchanged.
    expect(metrics).not.toContain('outcome="queued"} 2');
    expect(metrics).toContain('memdoctor_alerts_processed_total{change="opened"} 4');
    expect(metrics).toContain('memdoctor_alert_backlog 0');
    expect(slack.messages.length).toBe(before);
    for (const channel of Object.values(CHANNELS)) expect(rootsIn(channel)).toHaveLength(1);
  });

  it('a resolution edits its root and opens no thread (Alertmanager, PagerDuty)', async () => {
    const endsAt = '2026-12-07T03:20:00.000Z';
    const am = alertmanagerBody(endsAt);
    expect(await post('/alerts/alertmanager', am, { authorization: 'Bearer am-e2e-token' })).toEqual({
      status: 200,
      json: { queued: 1, duplicates: 0, unrouted: 0 },
    });
    // PagerDuty gives each webhook event its own id.
    const resolved = { type: 'incident.resolved', id: randomUUID() };
    const pd = pagerDutyBody(new Date().toISOString(), resolved);
    const signed = { 'x-pagerduty-signature': pdSignature(pd, 'pd-e2e-secret') };
    expect((await post('/alerts/pagerduty', pd, signed)).status).toBe(200);
    const flinkRoot = await waitFor(() =>
      rootsIn(CHANNELS.flink).find((m) => textOf(m).includes('Resolved')),
    );
    expect(textOf(flinkRoot)).toContain(`Resolved at ${endsAt}`);
    await waitFor(() => rootsIn(CHANNELS.spark).find((m) => textOf(m).includes('Resolved')));
    const edited = slack.callsTo('chat.update').map((c) => c.args.channel);
    expect(edited.sort()).toEqual([CHANNELS.flink, CHANNELS.spark]);
    for (const channel of Object.values(CHANNELS)) expect(rootsIn(channel)).toHaveLength(1);
  });

  it('Redis down at receipt: 503 and nothing stored; the sender’s retry once it is back opens one thread', async () => {
    const proxy = redisProxy as TcpProxy;
    // Another incident on the same Dataflow job, so it has a thread of its own.
    const send = () => post('/alerts/gcp?token=gcp-e2e-token', gcpBody('0.mtdi83m6w8ap'));
    await proxy.cut();
    try {
      expect((await send()).status).toBe(503);
    } finally {
      await proxy.restore();
    }
    expect(await scrape()).toContain('memdoctor_alert_intake_failures_total{receiver="gcp-monitoring"} 1');
    // Cloud Monitoring sends the notification again until it gets a 2xx.
    let accepted: unknown;
    const retried = async () => {
      const answer = await send();
      if (answer.status === 200) accepted = answer.json;
      return answer.status;
    };
    await expect.poll(retried, { timeout: 15_000 }).toBe(200);
    // Queued by the retry, not a duplicate: the refused request had stored nothing.
    expect(accepted).toEqual({ queued: 1, duplicates: 0, unrouted: 0 });
    await waitFor(() => {
      const second = rootsIn(CHANNELS.dataflow)[1];
      return second && repliesTo(second).length >= 2;
    }, 20_000);
    expect(rootsIn(CHANNELS.dataflow)).toHaveLength(2);
    expect(textOf(repliesTo(rootsIn(CHANNELS.dataflow)[1] as StoredMessage)[0])).toContain(
      'job.currentState = JOB_STATE_FAILED',
    );
  });
});
