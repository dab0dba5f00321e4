import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { assertBuilt, ROOT, testEnv } from '../cli/spawn-helpers.ts';
import { type AwsFake, TEST_CREDENTIALS } from './fakes/aws-fake.ts';
import { GLUE_JOB, GLUE_RUN, glueFake } from './fakes/aws-systems.ts';
import { endlessBody, gzipBomb } from './fakes/hostile.ts';
import { kubeFake, MEMHOG, writeKubeconfig } from './fakes/kube-fake.ts';
import type { RestFake } from './fakes/rest-fake.ts';

/** The check's deadline: small, so a client that waited for it instead of cutting the body shows. */
const TIMEOUT_MS = 3_000;
const MiB = 1024 * 1024;

/** The memory limit of the shipped Deployment's container, read from the manifest. */
function deploymentLimit(): number {
  const docs = readFileSync(join(ROOT, 'deploy/kubernetes/deployment.yaml'), 'utf8');
  const limit: string = parseYaml(docs).spec.template.spec.containers[0].resources.limits.memory;
  const [, n = '0', unit = ''] = /^(\d+)(Mi|Gi)$/.exec(limit) ?? [];
  return Number(n) * (unit === 'Gi' ? 1024 : 1) * MiB;
}

interface Run {
  code: number | null;
  stderr: string;
  /** Peak resident set of the process, bytes (GNU time's "Maximum resident set size"). */
  peakRss: number;
  wallMs: number;
}

/** `memdoctor check ...` as a process, under GNU time for its peak resident set. */
function check(args: string[], env: Record<string, string>): Promise<Run> {
  const started = Date.now();
  const child = spawn(
    '/usr/bin/time',
    ['-v', process.execPath, join(ROOT, 'bin/memdoctor.mjs'), 'check', ...args],
    {
      cwd: ROOT,
      env: testEnv({ REDIS_URL: '', OPENAI_API_KEY: '', ...env }),
    },
  );
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  child.stdout.resume();
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? Number.NaN);
      resolve({ code, stderr, peakRss: kb * 1024, wallMs: Date.now() - started });
    });
  });
}

function connectorsYaml(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'hostile-rss-')), 'connectors.yaml');
  writeFileSync(file, text);
  return file;
}

/**
 * Issue 35, finding 1, from outside: the built CLI against an endless body and a gzip bomb ends
 * within its deadline, with a peak resident set under twice that of the same check answered
 * normally, and far under the Deployment's limit. GNU time reads the peak (getrusage's ru_maxrss).
 */
describe('memdoctor check against answers without end, as a process', () => {
  const fakes: (RestFake | AwsFake)[] = [];
  afterEach(async () => {
    for (const fake of fakes.splice(0)) await fake.stop();
  });

  async function kubernetes(hostile?: (res: import('node:http').ServerResponse) => void) {
    const fake = kubeFake();
    fakes.push(fake);
    if (hostile) fake.override('pod', { respond: hostile });
    const server = await fake.start();
    const yaml = connectorsYaml(
      `kubernetes: { kubeconfig: ${writeKubeconfig(server)}, timeoutMs: ${TIMEOUT_MS} }\n`,
    );
    return check(['kubernetes', `${MEMHOG.namespace}/${MEMHOG.name}`], { MEMDOCTOR_CONNECTORS: yaml });
  }

  async function glue(hostile?: (res: import('node:http').ServerResponse) => void) {
    const fake = glueFake();
    fakes.push(fake);
    if (hostile) fake.override('AWSGlue.GetJobRun', { respond: hostile });
    const url = await fake.start();
    const yaml = connectorsYaml(
      `glue: { region: us-east-1, endpoint: "${url}", timeoutMs: ${TIMEOUT_MS}, maxAttempts: 1 }\n`,
    );
    return check(['glue', `${GLUE_JOB}/${GLUE_RUN}`], {
      MEMDOCTOR_CONNECTORS: yaml,
      AWS_ACCESS_KEY_ID: TEST_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: TEST_CREDENTIALS.secretAccessKey,
      AWS_CONFIG_FILE: '/nonexistent/memdoctor-test/config',
      AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/memdoctor-test/credentials',
      AWS_EC2_METADATA_DISABLED: 'true',
    });
  }

  const cases = [
    ['Kubernetes', kubernetes, 'application/json', 'Kubernetes API server answered more than 8388608 bytes'],
    ['Glue', glue, 'application/x-amz-json-1.1', 'AWS Glue answered more than 8388608 bytes'],
  ] as const;

  for (const [system, run, type, cut] of cases)
    it(`${system}: an endless body and a gzip bomb end within the deadline, under 2x the RSS of a normal check`, async () => {
      assertBuilt();
      const normal = await run();
      const endless = await run(endlessBody(type));
      const bomb = await run(gzipBomb(type));
      const limit = deploymentLimit();
      console.log(
        `${system}: peak RSS normal ${(normal.peakRss / MiB).toFixed(0)} MiB (${normal.wallMs} ms), endless ${(endless.peakRss / MiB).toFixed(0)} MiB (${endless.wallMs} ms), gzip bomb ${(bomb.peakRss / MiB).toFixed(0)} MiB (${bomb.wallMs} ms); Deployment limit ${limit / MiB} MiB`,
      );
      expect(normal.stderr).not.toMatch(/answered more than/);
      expect(endless.stderr).toContain(cut);
      // Glue never inflates (the SDK asks for no encoding): the bomb is refused by its header.
      expect(bomb.stderr).toMatch(system === 'Glue' ? /in a gzip encoding memdoctor did not ask for/ : cut);
      for (const hostile of [endless, bomb]) {
        expect(hostile.peakRss).toBeLessThan(2 * normal.peakRss);
        expect(hostile.peakRss).toBeLessThan(limit / 2);
        // Cut by the cap, not by the deadline: no slower than the normal check plus the deadline.
        expect(hostile.wallMs).toBeLessThan(normal.wallMs + TIMEOUT_MS);
      }
    }, 120_000);
});
