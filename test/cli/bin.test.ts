import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './spawn-helpers.ts';

const run = promisify(execFile);
const BIN = join(ROOT, 'bin', 'memdoctor.mjs');
const ELSEWHERE = mkdtempSync(join(tmpdir(), 'memdoctor-bin-'));
const ENV = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent' };

/** The built command, run as an installed one: plain node, another working directory, no tsx. */
async function bin(args: string[], input?: string) {
  const child = run(process.execPath, [BIN, ...args], { cwd: ELSEWHERE, env: ENV });
  if (input !== undefined) child.child.stdin?.end(input);
  try {
    const { stdout, stderr } = await child;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('the built bin (dist/, made by npm ci through prepare)', () => {
  beforeAll(() => {
    if (!existsSync(join(ROOT, 'dist', 'cli.js'))) throw new Error('dist/ is missing: run npm run build');
    writeFileSync(join(ELSEWHERE, 'one.log'), 'java.lang.OutOfMemoryError: Java heap space\n');
  });
  afterAll(() => rmSync(ELSEWHERE, { recursive: true, force: true }));

  it('diagnoses a file from another working directory with the shipped playbooks', async () => {
    const { code, stdout } = await bin(['diagnose', '--json', 'one.log']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).diagnoses[0].playbook).toBe('jvm-oom');
  });

  it('reads piped stdin and prints no colour into a pipe', async () => {
    const { code, stdout } = await bin(['diagnose'], 'java.lang.OutOfMemoryError: Java heap space\n');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^== - \(1 lines\)\nA JVM ran out of memory/);
  });

  it('serve without Slack credentials names them and exits non-zero, never the console', async () => {
    const { code, stdout, stderr } = await bin(['serve']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET must both be set/);
  });

  it('--version and an unknown command', async () => {
    expect((await bin(['--version'])).stdout).toMatch(/^memdoctor \d+\.\d+\.\d+\n$/);
    const unknown = await bin(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
  });
});
