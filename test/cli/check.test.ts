import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseText } from '../../src/engine/parsers/parse-text.ts';
import { FLINK_TM_POD, kubeFake, MEMHOG, writeKubeconfig } from '../connectors/fakes/kube-fake.ts';
import { fixture, type RestFake } from '../connectors/fakes/rest-fake.ts';
import {
  FLINK_JOB,
  flinkFake,
  SPARK_APP,
  sparkFake,
  YARN_APP,
  yarnFake,
} from '../connectors/fakes/systems.ts';
import { cli } from './in-process.ts';

const pasted = (path: string) => fixture(`../../engine/parsers/fixtures/${path}`);

function connectorsYaml(lines: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'check-')), 'connectors.yaml');
  writeFileSync(file, lines);
  return file;
}

describe('memdoctor check', () => {
  const fakes: RestFake[] = [];
  async function serve(fake: RestFake, system: string): Promise<void> {
    fakes.push(fake);
    const url = await fake.start();
    vi.stubEnv('MEMDOCTOR_CONNECTORS', connectorsYaml(`${system}: { url: ${url}, timeoutMs: 2000 }\n`));
  }
  beforeEach(() => {
    vi.stubEnv('REDIS_URL', '');
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('MEMDOCTOR_PLAYBOOKS_DIR', '');
    vi.stubEnv('LOG_LEVEL', 'silent');
  });
  afterEach(async () => {
    for (const fake of fakes.splice(0)) {
      expect(fake.violations).toEqual([]);
      await fake.stop();
    }
    vi.unstubAllEnvs();
  });

  it('yarn: the fetched diagnostics get the diagnosis the pasted diagnostics get, citing fetched fields', async () => {
    await serve(yarnFake('yarn/assembled-app-killed-beyond-physical.json'), 'yarn');
    const fetched = await cli(['check', 'yarn', YARN_APP, '--json']);
    expect(fetched.code).toBe(0);
    const report = JSON.parse(fetched.out);
    const paste = fixture('yarn/assembled-app-killed-beyond-physical.paste.txt');
    const byPaste = JSON.parse((await cli(['diagnose', '--json'], paste)).out);
    const judged = (r: { diagnoses: { playbook: string; cause: string | null; confidence: number }[] }) =>
      r.diagnoses.map(({ playbook, cause, confidence }) => ({ playbook, cause, confidence }));
    expect(judged(byPaste).length).toBeGreaterThan(0);
    expect(judged(report)).toEqual(judged(byPaste));
    expect(report.diagnoses[0].evidence[0]).toEqual({
      line: 0,
      text: 'app.state = FINISHED, app.finalStatus = FAILED',
    });
    expect(report.fetched[0]).toMatchObject({
      connector: 'yarn',
      path: `/ws/v1/cluster/apps/${YARN_APP}`,
      parser: 'yarn-container',
    });
    expect(report.fetched[0].judgement.values).toEqual(parseText('yarn-container', paste).values);
    // The last attempt's containers follow from /appattempts' answer.
    expect(report.fetched.map((f: { path: string }) => f.path)).toEqual([
      `/ws/v1/cluster/apps/${YARN_APP}`,
      `/ws/v1/cluster/apps/${YARN_APP}/appattempts`,
      `/ws/v1/cluster/apps/${YARN_APP}/appattempts/appattempt_1326821518301_0005_000001/containers`,
    ]);
    expect(fetched.err).toMatch(/containers: this does not look like YARN container diagnostics/);
  });

  it('flink --job: the job is judged against /overview as the pasted pair is, and its exceptions are diagnosed', async () => {
    await serve(flinkFake(), 'flink');
    const { code, out } = await cli(['check', 'flink', '--job', FLINK_JOB, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.fetched.map((f: { path: string }) => f.path)).toEqual([
      '/overview',
      '/taskmanagers',
      `/jobs/${FLINK_JOB}`,
      `/jobs/${FLINK_JOB}/exceptions`,
    ]);
    // The exception history's OutOfMemoryError is diagnosed as the pasted trace is: a Flink heap OOM,
    // its evidence the fetched field first, then the trace's line.
    const oom = report.diagnoses.find((d: { playbook: string }) => d.playbook === 'flink-jvm-oom');
    expect(oom.evidence[0]).toEqual({
      line: 0,
      text: `jobs/${FLINK_JOB}/exceptions exceptionHistory.entries[0] = java.lang.OutOfMemoryError: Java heap space (IcebergStreamWriter (1/1) on 192.168.165.5:33911-ca8437 at 2024-08-28T14:13:15.833Z)`,
    });
    expect(oom.evidence.map((e: { text: string }) => e.text)).toContain(
      'java.lang.OutOfMemoryError: Java heap space',
    );
    const pair = parseText('flink-job-slots', pasted('flink-job-slots/assembled-overview-then-job.txt'));
    expect(report.fetched[2].judgement.values).toEqual(pair.values);
    expect(report.fetched[1].citations).toContain('taskmanagers[0].freeResource.taskHeapMemory = 358 MiB');
  });

  it('spark: prints where each answer came from, its judgement and its fields', async () => {
    await serve(sparkFake(), 'spark');
    const { code, out } = await cli(['check', 'spark', SPARK_APP]);
    expect(code).toBe(0);
    expect(out).toMatch(
      /^fetched spark GET \/api\/v1\/applications\/app-20161116163331-0000\/allexecutors at \d{4}-/,
    );
    expect(out).toContain('  spark-executors: 4 executor(s), 4 active, 0 removed;');
  });

  it('kubernetes: the pod, its events and the killed container’s previous log, judged as their pastes are', async () => {
    const fake = kubeFake();
    fakes.push(fake);
    const kubeconfig = writeKubeconfig(await fake.start());
    vi.stubEnv('MEMDOCTOR_CONNECTORS', connectorsYaml(`kubernetes: { kubeconfig: ${kubeconfig} }\n`));
    const { code, out } = await cli(['check', 'k8s', `${MEMHOG.namespace}/${MEMHOG.name}`, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.source).toBe(`kubernetes ${kubeconfig}`);
    const pod = `/api/v1/namespaces/${MEMHOG.namespace}/pods/${MEMHOG.name}`;
    // The log is of the container the pod says was OOMKilled, read from the pod's answer.
    expect(report.fetched.map((f: { path: string }) => f.path)).toEqual([
      pod,
      `/api/v1/namespaces/${MEMHOG.namespace}/events?fieldSelector=involvedObject.name%3D${MEMHOG.name}&limit=500`,
      `${pod}/log?container=memhog&limitBytes=8388608&previous=true&tailLines=200`,
    ]);
    const paste = pasted('k8s-pod/aiops-memhog-get-pod-yaml.txt');
    expect(report.fetched[0].judgement.values).toEqual(parseText('k8s-pod', paste).values);
    expect(report.fetched[0].judgement.verdict).toBe('OOMKilled at the container memory limit');
    // memhog runs python:3.11-slim: its OOMKill is no JVM's, pasted or fetched (issue 35, finding 11).
    const byPaste = JSON.parse((await cli(['diagnose', '--json'], paste)).out);
    const playbooks = (r: { diagnoses: { playbook: string }[] }) => r.diagnoses.map((d) => d.playbook);
    expect(playbooks(byPaste)).not.toContain('jvm-oom');
    expect(playbooks(report)).not.toContain('jvm-oom');
    // The log the fake serves for it is a Flink JobManager's heap OOM: diagnosed as that log pasted is.
    expect(playbooks(report)[0]).toBe('flink-jvm-oom');
  });

  it('kubernetes, restartPolicy Never: the kill in state.terminated is read and that container’s own log fetched', async () => {
    const fake = kubeFake();
    fakes.push(fake);
    const kubeconfig = writeKubeconfig(await fake.start());
    vi.stubEnv('MEMDOCTOR_CONNECTORS', connectorsYaml(`kubernetes: { kubeconfig: ${kubeconfig} }\n`));
    const { code, out } = await cli([
      'check',
      'k8s',
      `${FLINK_TM_POD.namespace}/${FLINK_TM_POD.name}`,
      '--json',
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    const pod = `/api/v1/namespaces/${FLINK_TM_POD.namespace}/pods/${FLINK_TM_POD.name}`;
    // Not restarted, so there is no previous log: the container's own log is the run that was killed.
    expect(report.fetched.map((f: { path: string }) => f.path).at(-1)).toBe(
      `${pod}/log?container=flink-main-container&limitBytes=8388608&tailLines=200`,
    );
    expect(report.fetched[0].judgement.values).toMatchObject({ oomKilled: true, restartCount: 0 });
    const top = report.diagnoses.find(
      (d: { playbook: string }) => d.playbook === 'flink-container-oom-killed',
    );
    expect(top?.evidence).toContainEqual({
      line: 0,
      text: 'containerStatuses[flink-main-container].state.terminated.reason = OOMKilled',
    });
    expect(report.diagnoses.map((d: { playbook: string }) => d.playbook)).not.toContain('jvm-oom');
  });

  it('nothing recognised: check does not end by pointing at an --engine it does not take', async () => {
    // YARN's own docs sample: a finished application with empty diagnostics.
    await serve(yarnFake('yarn/app-docs-finished.json'), 'yarn');
    const { code, out, err } = await cli(['check', 'yarn', YARN_APP]);
    expect(code).toBe(0);
    expect(out).toContain('No known memory problem recognised.');
    expect(out).not.toContain('--engine');
    expect(out.trimEnd().split('\n').at(-1)).toBe(
      "Nothing yarn answered matches a known memory problem; each answer's own judgement is listed above.",
    );
    expect(err).toContain("the application's diagnostics are empty");
  });

  it('a system that does not answer exits 2 and says to paste the output instead', async () => {
    const fake = yarnFake();
    fake.override('app', { status: 503 });
    fake.override('appattempts', { status: 503 });
    await serve(fake, 'yarn');
    const { code, err } = await cli(['check', 'yarn', YARN_APP]);
    expect(code).toBe(2);
    expect(err).toMatch(
      /YARN ResourceManager did not answer \(HTTP 503 for GET \/ws\/v1\/cluster\/apps\/application_1326821518301_0005\); paste the output of `curl http:\/\/127\.0\.0\.1:\d+\/ws/,
    );
  });

  it('spark ..: refused as not an application id, and the History Server is asked nothing (issue 35 finding 4)', async () => {
    const fake = sparkFake();
    await serve(fake, 'spark');
    const { code, err } = await cli(['check', 'spark', '..']);
    expect(code).toBe(2);
    expect(err).toContain('".." is not a appId');
    expect(fake.seen).toEqual([]);
  });

  it('unconfigured, it says how to configure it and fetches nothing', async () => {
    vi.stubEnv('MEMDOCTOR_CONNECTORS', '');
    const none = await cli(['check', 'spark', SPARK_APP]);
    expect(none.code).toBe(2);
    expect(none.err).toContain('set MEMDOCTOR_CONNECTORS to a connectors.yaml');
    vi.stubEnv('MEMDOCTOR_CONNECTORS', connectorsYaml('flink: { url: http://127.0.0.1:9 }\n'));
    const other = await cli(['check', 'spark', SPARK_APP]);
    expect(other.err).toContain('spark is not configured: add a "spark:" entry');
  });

  it('refuses a usage it does not know', async () => {
    const { code, err } = await cli(['check', 'dataproc', 'job']);
    expect(code).toBe(2);
    expect(err).toContain(
      'usage: memdoctor check flink [--job <id>] | spark <app-id> | yarn <app-id> | kubernetes <namespace>/<pod> | glue <job-name>/<run-id> | dataflow <job-id>',
    );
    const noPod = await cli(['check', 'kubernetes']);
    expect(noPod.err).toContain(
      'check kubernetes needs the pod, e.g. memdoctor check kubernetes <namespace>/<pod>',
    );
  });
});
