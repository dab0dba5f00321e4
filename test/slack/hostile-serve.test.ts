import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { assertBuilt, ROOT } from '../cli/spawn-helpers.ts';
import { type AwsFake, TEST_CREDENTIALS } from '../connectors/fakes/aws-fake.ts';
import { GLUE_JOB, GLUE_RUN, glueFake } from '../connectors/fakes/aws-systems.ts';
import { DF_JOB, DF_LOCATION, DF_PROJECT, dataflowFake } from '../connectors/fakes/dataflow-fake.ts';
import { testServiceAccount } from '../connectors/fakes/google-credentials.ts';
import { endlessBody, gzipBomb, OtherServer, redirectTo, trickle } from '../connectors/fakes/hostile.ts';
import { KUBE_TOKEN, kubeFake, MEMHOG, writeKubeconfig } from '../connectors/fakes/kube-fake.ts';
import { fixture, type RestFake } from '../connectors/fakes/rest-fake.ts';
import { sparkFake } from '../connectors/fakes/systems.ts';
import { FakeSlack } from './support/fake-slack.ts';
import { BOT_TOKEN, freePort, SIGNING_SECRET, waitFor } from './support/harness.ts';
import { slashCommand } from './support/payloads.ts';
import { SlackSender } from './support/signing.ts';

/**
 * Issue 35 from outside, through `memdoctor serve`: the built bot as a process, a signed `/memdoctor
 * check` per probe, the hostile answers on loopback servers, and the bot's own resident set read from
 * /proc (VmHWM, the kernel's peak). The CLI's figures are in test/connectors/hostile-rss.test.ts.
 */

/** Each connector's deadline: small, so a client that waited it out instead of cutting the body shows. */
const TIMEOUT_MS = 3_000;
const MiB = 1024 * 1024;
const POD = `${MEMHOG.namespace}/${MEMHOG.name}`;
const POD_PATH = `/api/v1/namespaces/${MEMHOG.namespace}/pods/${MEMHOG.name}`;

/** The memory limit of the shipped Deployment's container, read from the manifest. */
function deploymentLimit(): number {
  const docs = readFileSync(join(ROOT, 'deploy/kubernetes/deployment.yaml'), 'utf8');
  const limit: string = parseYaml(docs).spec.template.spec.containers[0].resources.limits.memory;
  const [, n = '0', unit = ''] = /^(\d+)(Mi|Gi)$/.exec(limit) ?? [];
  return Number(n) * (unit === 'Gi' ? 1024 : 1) * MiB;
}

/** A line of /proc/<pid>/status in bytes: VmRSS now, VmHWM the peak since the process started. */
function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
}

describe('memdoctor serve against hostile answers to /memdoctor check', () => {
  const slack = new FakeSlack(BOT_TOKEN);
  const kube: RestFake = kubeFake();
  const glue: AwsFake = glueFake();
  const spark: RestFake = sparkFake();
  const account = testServiceAccount(DF_PROJECT);
  const dataflow: RestFake = dataflowFake(undefined, account);
  const other = new OtherServer(fixture('kubernetes/pod-aiops-memhog-oomkilled.json'));
  let bot: ChildProcess;
  let stderr = '';
  let sender: SlackSender;
  let otherPort = 0;
  let asked = 0;

  beforeAll(async () => {
    assertBuilt();
    await slack.start();
    const [kubeUrl, glueUrl, sparkUrl, dataflowUrl] = await Promise.all([
      kube.start(),
      glue.start(),
      spark.start(),
      dataflow.start(),
    ]);
    otherPort = await other.start();
    const yaml = join(mkdtempSync(join(tmpdir(), 'hostile-serve-')), 'connectors.yaml');
    writeFileSync(
      yaml,
      [
        `kubernetes: { kubeconfig: ${writeKubeconfig(kubeUrl)}, timeoutMs: ${TIMEOUT_MS} }`,
        `glue: { region: us-east-1, endpoint: "${glueUrl}", timeoutMs: ${TIMEOUT_MS}, maxAttempts: 1 }`,
        `spark: { url: "${sparkUrl}", timeoutMs: ${TIMEOUT_MS} }`,
        `dataflow: { project: ${DF_PROJECT}, location: ${DF_LOCATION}, endpoint: "${dataflowUrl}", monitoringEndpoint: "${dataflowUrl}", timeoutMs: ${TIMEOUT_MS} }`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    bot = spawn(process.execPath, [join(ROOT, 'bin/memdoctor.mjs'), 'serve'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        PORT: String(port),
        LOG_LEVEL: 'info',
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: slack.apiUrl,
        MEMDOCTOR_ALLOW_HTTP_LOOPBACK: 'true',
        MEMDOCTOR_CONNECTORS: yaml,
        AWS_ACCESS_KEY_ID: TEST_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: TEST_CREDENTIALS.secretAccessKey,
        AWS_CONFIG_FILE: '/nonexistent/memdoctor-test/config',
        AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/memdoctor-test/credentials',
        AWS_EC2_METADATA_DISABLED: 'true',
        GOOGLE_APPLICATION_CREDENTIALS: account.file,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    bot.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok);
    sender = new SlackSender(`http://127.0.0.1:${port}/slack/events`, SIGNING_SECRET);
  }, 60_000);

  afterAll(async () => {
    if (bot && bot.exitCode === null) {
      bot.kill('SIGTERM');
      await once(bot, 'exit');
    }
    await Promise.all([slack.stop(), kube.stop(), glue.stop(), spark.stop(), dataflow.stop(), other.stop()]);
    expect(kube.violations).toEqual([]);
    expect(glue.violations).toEqual([]);
    expect(dataflow.violations).toEqual([]);
  });

  /**
   * `/memdoctor check <text>` from a person of its own (the per-person caps stay out of the way), and
   * the answer shown to them: unconfigured access answers the asker only, through the response URL.
   */
  async function check(text: string): Promise<string> {
    const user = `UPROBE${String(++asked).padStart(3, '0')}`;
    const before = slack.responses.length;
    const res = await sender.command(
      slashCommand(`check ${text}`, { user, channel: 'CPROBES1', responseUrl: slack.responseUrl }),
    );
    expect(res.status).toBe(200);
    const told = await waitFor(
      () => slack.responses.slice(before).find((r) => !JSON.stringify(r).includes('Fetching')),
      30_000,
    );
    return JSON.stringify(told);
  }

  const hostile = (respond: (res: ServerResponse) => void) => ({ respond });

  it('an endless body and a gzip bomb, from Kubernetes and from Glue, keep the bot under twice its idle RSS', async () => {
    const cold = procStatus(bot.pid ?? 0, 'VmHWM');
    // A normal answer from each first, so the peak afterwards counts the probes, not the modules' loading
    // nor the PNG thread (about 18 MiB with resvg) that draws the Glue answer's chart after the answer.
    expect(await check(`kubernetes ${POD}`)).toContain(MEMHOG.name);
    expect(await check(`glue ${GLUE_JOB}/${GLUE_RUN}`)).toContain(GLUE_RUN);
    await waitFor(() => slack.callsTo('files.completeUploadExternal').length > 0 || undefined);
    const normal = procStatus(bot.pid ?? 0, 'VmHWM');
    // Idle: the bot that has answered, its chart drawn and its PNG thread stopped (1 s without work).
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const idle = procStatus(bot.pid ?? 0, 'VmRSS');
    // The peak from here on is the probes' own (proc(5): writing 5 to clear_refs resets VmHWM to VmRSS).
    writeFileSync(`/proc/${bot.pid}/clear_refs`, '5');

    kube.override('pod', hostile(endlessBody()));
    expect(await check(`kubernetes ${POD}`)).toContain(
      'Kubernetes API server answered more than 8388608 bytes',
    );
    kube.override('pod', hostile(gzipBomb()));
    expect(await check(`kubernetes ${POD}`)).toContain(
      'Kubernetes API server answered more than 8388608 bytes (once decompressed)',
    );
    glue.override('AWSGlue.GetJobRun', hostile(endlessBody('application/x-amz-json-1.1')));
    expect(await check(`glue ${GLUE_JOB}/${GLUE_RUN}`)).toContain(
      'AWS Glue answered more than 8388608 bytes',
    );
    glue.override('AWSGlue.GetJobRun', hostile(gzipBomb('application/x-amz-json-1.1')));
    expect(await check(`glue ${GLUE_JOB}/${GLUE_RUN}`)).toContain(
      'in a gzip encoding memdoctor did not ask for',
    );
    const peak = procStatus(bot.pid ?? 0, 'VmHWM');
    const limit = deploymentLimit();
    console.log(
      `serve: peak RSS at start ${(cold / MiB).toFixed(0)} MiB, after normal checks ${(normal / MiB).toFixed(0)} MiB; RSS idle after them ${(idle / MiB).toFixed(0)} MiB; peak during the four probes ${(peak / MiB).toFixed(0)} MiB; Deployment limit ${limit / MiB} MiB`,
    );
    expect(peak).toBeLessThan(2 * idle);
    expect(peak).toBeLessThan(limit / 2);
    expect(bot.exitCode).toBeNull();
  }, 120_000);

  it('a slow answer ends at its deadline, and the bot says so', async () => {
    kube.override('pod', hostile(trickle()));
    expect(await check(`kubernetes ${POD}`)).toContain(
      `Kubernetes API server did not answer GET ${POD_PATH} (no answer within ${TIMEOUT_MS} ms)`,
    );
    glue.override('AWSGlue.GetJobRun', hostile(trickle(50, 'application/x-amz-json-1.1')));
    expect(await check(`glue ${GLUE_JOB}/${GLUE_RUN}`)).toContain(
      `AWS Glue did not answer GetJobRun (no answer within ${TIMEOUT_MS} ms)`,
    );
  }, 60_000);

  it('a redirect off the API server is not followed: the token goes nowhere else', async () => {
    kube.override('pod', hostile(redirectTo(`http://127.0.0.1:${otherPort}${POD_PATH}`)));
    const told = await check(`kubernetes ${POD}`);
    expect(told).toContain(`redirected GET ${POD_PATH} to http://127.0.0.1:${otherPort}`);
    // Dataflow's Google token (a JWT signed with the service account's key) the same way.
    const jobPath = `/v1b3/projects/${DF_PROJECT}/locations/${DF_LOCATION}/jobs/${DF_JOB}`;
    dataflow.override(
      'dataflow.projects.locations.jobs.get',
      hostile(redirectTo(`http://127.0.0.1:${otherPort}${jobPath}`)),
    );
    expect(await check(`dataflow ${DF_JOB}`)).toContain(
      `Dataflow redirected jobs.get to http://127.0.0.1:${otherPort}`,
    );
    expect(dataflow.seen.at(-1)?.headers.authorization).toMatch(/^Bearer ey/);
    expect(other.seen).toEqual([]);
    expect(stderr).not.toContain(KUBE_TOKEN);
  }, 60_000);

  it('an id of ".." asks the History Server nothing', async () => {
    const told = await check('spark ..');
    expect(told).toContain('\\"..\\" is not a appId');
    expect(spark.seen).toEqual([]);
  }, 60_000);
});
