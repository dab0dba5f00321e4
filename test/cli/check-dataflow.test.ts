import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DF_JOB, DF_LOCATION, DF_PROJECT, dataflowFake } from '../connectors/fakes/dataflow-fake.ts';
import { testServiceAccount } from '../connectors/fakes/google-credentials.ts';
import { fixture, type RestFake } from '../connectors/fakes/rest-fake.ts';
import { cli } from './in-process.ts';
import { assertBuilt, ROOT, testEnv } from './spawn-helpers.ts';

type Report = {
  diagnoses: { playbook: string; cause: string | null; confidence: number; actions: string[] }[];
};
const judged = (r: Report) =>
  r.diagnoses.map(({ playbook, cause, confidence, actions }) => ({ playbook, cause, confidence, actions }));
/** What a person pastes: `gcloud dataflow jobs describe --format=json`, then the launcher's JOB_MESSAGE_ lines. */
const PASTE = `${fixture('dataflow/assembled-job-python-2.50-failed.json')}${readFileSync(
  join(
    import.meta.dirname,
    '..',
    'engine',
    'parsers',
    'fixtures',
    'dataflow-messages',
    'assembled-runner-log-workers-lost.txt',
  ),
  'utf8',
)}`;

describe('memdoctor check dataflow', () => {
  const account = testServiceAccount(DF_PROJECT);
  let fake: RestFake;
  beforeEach(async () => {
    vi.stubEnv('REDIS_URL', '');
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('MEMDOCTOR_PLAYBOOKS_DIR', '');
    vi.stubEnv('LOG_LEVEL', 'silent');
    // Application Default Credentials, as in production: a service-account key file.
    vi.stubEnv('GOOGLE_APPLICATION_CREDENTIALS', account.file);
    fake = dataflowFake(undefined, account);
    const url = await fake.start();
    const file = join(mkdtempSync(join(tmpdir(), 'check-dataflow-')), 'connectors.yaml');
    writeFileSync(
      file,
      `dataflow: { project: ${DF_PROJECT}, location: ${DF_LOCATION}, endpoint: "${url}", monitoringEndpoint: "${url}", timeoutMs: 3000 }\n`,
    );
    vi.stubEnv('MEMDOCTOR_CONNECTORS', file);
  });
  afterEach(async () => {
    expect(fake.violations).toEqual([]);
    await fake.stop();
    vi.unstubAllEnvs();
  });

  it('the fetched job and messages get the diagnosis the pasted describe output and runner log get', async () => {
    const fetched = await cli(['check', 'dataflow', DF_JOB, '--json']);
    expect(fetched.err).toBe('');
    expect(fetched.code).toBe(0);
    const report = JSON.parse(fetched.out);
    const byPaste = JSON.parse((await cli(['diagnose', '--json'], PASTE)).out);
    expect(judged(byPaste)[0]).toMatchObject({ playbook: 'beam-python-leak', cause: 'known-sdk-leak' });
    expect(judged(report)).toEqual(judged(byPaste));
    expect(report.diagnoses[0].actions.join('\n')).toMatch(/Upgrade apache-beam to 2\.52\.0 or later/);
    expect(report.source).toBe(`dataflow ${DF_PROJECT}/${DF_LOCATION}`);
    expect(report.diagnoses[0].evidence[0]).toEqual({ line: 0, text: 'job.currentState = JOB_STATE_FAILED' });
    expect(report.fetched.map((f: { path: string }) => f.path.split(' ')[0])).toEqual([
      'jobs.get',
      'jobs.messages.list',
      'jobs.getMetrics',
      'jobs.get',
    ]);
    expect(report.fetched[3].path).toContain(
      'timeSeries.list projects/gcpdiag-dataflow1-aaaa dataflow.googleapis.com/worker/memory/{bytes_used,container_limit} job_name=wordcount',
    );
    expect(report.fetched[3].judgement.verdict).toBe('worker container reached 94% of its memory limit');
    expect(report.fetched[1].judgement.verdict).toBe('workers lost, most often to memory');
  });

  it("draws the workers' memory it fetched from Cloud Monitoring: the container nearest its limit against it", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'check-dataflow-charts-')), 'charts');
    const { code, out } = await cli(['check', 'dataflow', DF_JOB, '--chart', dir]);
    expect(code).toBe(0);
    expect(out).toContain(`chart: ${join(dir, 'memory-samples.svg')} ${join(dir, 'memory-samples.png')}`);
    const svg = readFileSync(join(dir, 'memory-samples.svg'), 'utf8');
    expect(svg).toContain(
      '<title>Dataflow worker memory (harness on wordcount-05180703-k2qd-harness-7lzw)</title>',
    );
    expect(svg).toMatch(/aria-label="[^"]*13 memory samples against container_limit of 256 MB/);
    expect(readFileSync(join(dir, 'memory-samples.png')).subarray(1, 4).toString()).toBe('PNG');
  });

  it('prints each call, its judgement and its fields', async () => {
    const { code, out } = await cli(['check', 'dataflow', DF_JOB]);
    expect(code).toBe(0);
    expect(out).toContain(
      `fetched dataflow jobs.get projects/${DF_PROJECT}/locations/${DF_LOCATION}/jobs/${DF_JOB} at `,
    );
    expect(out).toMatch(/ {2}dataflow-messages: Dataflow job wordcount \(JOB_TYPE_BATCH, JOB_STATE_FAILED\)/);
    expect(out).toContain('  - metrics: 2 update(s) at 2026-05-18T14:07:14.170Z');
    expect(out).toContain(
      '  cloud-monitoring-series: harness on wordcount-05180703-k2qd-harness-7lzw peaked at 240 MB of 256 MB container_limit (94%), 13 points, climbing;',
    );
  });

  it('the built command loads the CommonJS client as Node loads it (tsx would hide a missing export)', async () => {
    assertBuilt();
    const child = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      // Asynchronous: the fake answers in this same process.
      import('node:child_process').then(({ execFile }) =>
        execFile(
          process.execPath,
          [join(ROOT, 'bin', 'memdoctor.mjs'), 'check', 'dataflow', DF_JOB, '--json'],
          {
            env: testEnv({
              MEMDOCTOR_CONNECTORS: process.env.MEMDOCTOR_CONNECTORS ?? '',
              GOOGLE_APPLICATION_CREDENTIALS: account.file,
              MEMDOCTOR_PLAYBOOKS_DIR: '',
            }),
            timeout: 60_000,
          },
          (error, stdout, stderr) =>
            resolve({
              status: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
              stdout,
              stderr,
            }),
        ),
      );
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout).diagnoses[0]).toMatchObject({
      playbook: 'beam-python-leak',
      cause: 'known-sdk-leak',
    });
  });

  it('a job that is nowhere exits 2 and says what was not found', async () => {
    const { code, err } = await cli(['check', 'dataflow', '2026-05-18_07_03_26-1']);
    expect(code).toBe(2);
    expect(err).toContain(
      'Dataflow has no job 2026-05-18_07_03_26-1 in project gcpdiag-dataflow1-aaaa, region us-central1',
    );
  });

  it('wants the job id', async () => {
    const { code, err } = await cli(['check', 'dataflow']);
    expect(code).toBe(2);
    expect(err).toContain('check dataflow needs the job id');
    expect(fake.seen).toEqual([]);
  });
});
