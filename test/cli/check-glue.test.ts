import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AwsFake, awsError } from '../connectors/fakes/aws-fake.ts';
import { GLUE_JOB, GLUE_REGION, GLUE_RUN, glueFake } from '../connectors/fakes/aws-systems.ts';
import { fixture } from '../connectors/fakes/rest-fake.ts';
import { useTestCredentials } from '../connectors/glue-support.ts';
import { cli } from './in-process.ts';

const ID = `${GLUE_JOB}/${GLUE_RUN}`;
const PLAYBOOK_FIXTURES = join(import.meta.dirname, '..', '..', 'playbooks', 'glue-heap-oom', 'fixtures');
type Report = {
  diagnoses: { playbook: string; cause: string | null; confidence: number; actions: string[] }[];
};
const judged = (r: Report) =>
  r.diagnoses.map(({ playbook, cause, confidence, actions }) => ({ playbook, cause, confidence, actions }));

describe('memdoctor check glue', () => {
  let fake: AwsFake;
  beforeEach(async () => {
    vi.stubEnv('REDIS_URL', '');
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('MEMDOCTOR_PLAYBOOKS_DIR', '');
    vi.stubEnv('LOG_LEVEL', 'silent');
    useTestCredentials();
    fake = glueFake();
    const url = await fake.start();
    const file = join(mkdtempSync(join(tmpdir(), 'check-glue-')), 'connectors.yaml');
    writeFileSync(
      file,
      `glue: { region: ${GLUE_REGION}, endpoint: "${url}", timeoutMs: 3000, maxAttempts: 1 }\n`,
    );
    vi.stubEnv('MEMDOCTOR_CONNECTORS', file);
  });
  afterEach(async () => {
    expect(fake.violations).toEqual([]);
    await fake.stop();
    vi.unstubAllEnvs();
  });

  it("draws the CloudWatch heap series it fetched: the driver's heap against its maximum", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'check-glue-charts-')), 'charts');
    const { code, out } = await cli(['check', 'glue', ID, '--chart', dir]);
    expect(code).toBe(0);
    expect(out).toContain(`chart: ${join(dir, 'memory-samples.svg')} ${join(dir, 'memory-samples.png')}`);
    const svg = readFileSync(join(dir, 'memory-samples.svg'), 'utf8');
    expect(svg).toContain("<title>Glue driver's heap used (glue.driver.jvm.heap.used)</title>");
    expect(svg).toMatch(/aria-label="[^"]*against maximum heap \(used \/ usage\) of 128 MB/);
  });

  it('the fetched run and error log get the diagnosis the pasted get-job-run output and log get', async () => {
    const fetched = await cli(['check', 'glue', ID, '--json']);
    expect(fetched.err).toBe('');
    expect(fetched.code).toBe(0);
    const report = JSON.parse(fetched.out);
    // What a person pastes: `aws glue get-job-run` (epoch seconds, as the CLI example prints) and the error log.
    const paste = `${fixture('glue/assembled-get-job-run-failed-oom.json')}\n${readFileSync(join(PLAYBOOK_FIXTURES, 'corpus-p030.txt'), 'utf8')}`;
    const byPaste = JSON.parse((await cli(['diagnose', '--json', '--engine', 'glue'], paste)).out);
    expect(judged(byPaste)[0]?.playbook).toBe('glue-heap-oom');
    expect(judged(report)).toEqual(judged(byPaste));
    // The run's worker type sizes the fix: G.1X to G.2X.
    expect(report.diagnoses[0].actions.join('\n')).toMatch(/G\.1X to G\.2X/);
    expect(report.source).toBe('glue region us-east-1');
    expect(report.diagnoses[0].evidence.slice(0, 2)).toEqual([
      { line: 0, text: 'JobRun.JobRunState = FAILED' },
      { line: 0, text: 'JobRun.ErrorMessage = Command failed with exit code 1' },
    ]);
    expect(report.fetched.map((f: { path: string }) => f.path)).toEqual([
      `GetJobRun JobName=${GLUE_JOB} RunId=${GLUE_RUN}`,
      expect.stringMatching(
        /^GetJobRun .*, GetMetricData Glue glue\.\{driver,ALL\}\.jvm\.heap\.\{usage,used\} JobRunId=jr_\w+ /,
      ),
      `GetLogEvents /aws-glue/jobs/error/${GLUE_RUN} (last 200)`,
    ]);
    expect(report.fetched[1].parser).toBe('cloudwatch-metrics');
    expect(report.fetched[1].judgement.values.driverHeapUsagePeak).toBeGreaterThan(0.9);
  });

  it('prints each call, its judgement and its fields', async () => {
    const { code, out } = await cli(['check', 'glue', ID]);
    expect(code).toBe(0);
    expect(out).toContain(`fetched glue GetJobRun JobName=${GLUE_JOB} RunId=${GLUE_RUN} at `);
    expect(out).toMatch(/ {2}cloudwatch-metrics: driver's heap peaked at 98%/);
    expect(out).toContain('  - events[0].message = # java.lang.OutOfMemoryError: Java heap space');
  });

  it('one call refused still judges the others, and says which permission is missing', async () => {
    fake.override(
      'GraniteServiceVersion20100801.GetMetricData',
      awsError('AccessDeniedException', 'User is not authorized to perform: cloudwatch:GetMetricData'),
    );
    const { code, out, err } = await cli(['check', 'glue', ID, '--json']);
    expect(code).toBe(0);
    expect(err).toContain('the credentials need cloudwatch:GetMetricData');
    expect(JSON.parse(out).diagnoses[0].playbook).toBe('glue-heap-oom');
  });

  it('a run that is nowhere exits 2 and says what was not found', async () => {
    const unknown = `jr_${'f'.repeat(64)}`;
    const { code, err } = await cli(['check', 'glue', `${GLUE_JOB}/${unknown}`]);
    expect(code).toBe(2);
    expect(err).toContain(
      `AWS Glue has no job run ${unknown} of job "${GLUE_JOB}" (EntityNotFoundException): check the names`,
    );
  });

  it("a job name of another job still reads the run's error log, and says the run was not found", async () => {
    const { code, out, err } = await cli(['check', 'glue', `nightly/${GLUE_RUN}`, '--json']);
    expect(code).toBe(0);
    expect(err).toContain('AWS Glue has no job run');
    expect(JSON.parse(out).fetched.map((f: { path: string }) => f.path)).toEqual([
      `GetLogEvents /aws-glue/jobs/error/${GLUE_RUN} (last 200)`,
    ]);
  });

  it('wants the job name and the run id', async () => {
    const { code, err } = await cli(['check', 'glue', GLUE_RUN]);
    expect(code).toBe(2);
    expect(err).toContain('check glue needs the job name and the run id');
    expect(fake.seen).toEqual([]);
  });
});
