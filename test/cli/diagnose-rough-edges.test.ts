import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { TERMINAL_HINT } from '../../src/cli/commands/diagnose.ts';
import { runCli } from '../../src/cli/main.ts';
import { MAX_LINE_CHARS } from '../../src/engine/index.ts';

const HEAP_OOM = 'java.lang.OutOfMemoryError: Java heap space';
const dir = mkdtempSync(join(tmpdir(), 'md-rough-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `memdoctor diagnose` in-process; stdin is a terminal when `tty`, and gets `input` after a pause. */
async function diagnose(args: string[], input: string, tty: boolean) {
  const stdin: PassThrough & { isTTY?: boolean } = new PassThrough();
  if (tty) stdin.isTTY = true;
  let out = '';
  let err = '';
  let errBeforeInput = '';
  const running = runCli(['diagnose', ...args], {
    stdin,
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  errBeforeInput = err;
  stdin.end(input);
  const code = await running;
  return { code, out, err, errBeforeInput };
}

describe('memdoctor diagnose with a terminal on stdin', () => {
  it('says how to paste or pipe before it waits, then diagnoses what was pasted', async () => {
    const run = await diagnose(['--json'], `${HEAP_OOM}\n`, true);
    expect(run.errBeforeInput).toBe(TERMINAL_HINT);
    expect(TERMINAL_HINT).toContain('Ctrl-D');
    expect(TERMINAL_HINT).toContain('| memdoctor diagnose');
    expect(JSON.parse(run.out).diagnoses[0].playbook).toBe('jvm-oom');
    expect(run.code).toBe(0);
  });

  it('says nothing when the input is piped or a file is named', async () => {
    const piped = await diagnose(['--json'], `${HEAP_OOM}\n`, false);
    expect(piped.err).toBe('');
    const file = join(dir, 'driver.log');
    writeFileSync(file, `${HEAP_OOM}\n`);
    const named = await diagnose(['--json', file], '', true);
    expect(named.err).toBe('');
    expect(JSON.parse(named.out).diagnoses[0].playbook).toBe('jvm-oom');
  });
});

describe('memdoctor diagnose on a line longer than it reads', () => {
  it('finds the message past the cut, says the line was cut, and keeps the JSON contract', async () => {
    const file = join(dir, 'long.log');
    writeFileSync(file, `INFO starting\nERROR payload: ${'a'.repeat(MAX_LINE_CHARS * 5)}${HEAP_OOM}\n`);
    const run = await diagnose(['--json', file], '', false);
    const report = JSON.parse(run.out);
    expect(report.diagnoses[0].playbook).toBe('jvm-oom');
    expect(Object.keys(report.input)).toEqual(['bytes', 'lines']);
    expect(run.err).toContain(`memdoctor: line 2 had more than ${MAX_LINE_CHARS} characters`);
  });
});
