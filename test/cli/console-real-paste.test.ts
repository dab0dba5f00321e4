import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRealConsole, runTerminalConsole } from './console-harness.ts';

// Captured on this project's machine from a live JDK 17 (commands in fixtures/SOURCES.md).
const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8').replace(/\n$/, '');
const NMT = fixture('jdk17-nmt-summary.txt');
const PMAP = fixture('jdk17-pmap-x.txt');
const TOP = fixture('top-b.txt');

// flink-container-oom-killed: JDK 11+ (2), a shell in the container (1), then the NMT paste step.
// Physical kill, a JDK newer than 8u152, a shell in the container.
const TO_NMT = ['walk flink-container-oom-killed', '2', '2', '1'];
const NMT_STEP = '-- Step 4: What does the JVM itself account for?';
const PMAP_STEP = '-- Step 5: Are glibc arenas piling up?';

describe('a real NMT summary pasted at the console', () => {
  it('has blank lines, and whitespace-only ones, inside it', () => {
    expect(NMT.split('\n').filter((l) => l.trim() === '').length).toBeGreaterThanOrEqual(4);
    expect(TOP.split('\n')).toContain('');
  });

  it('is read whole up to the "." and leads to the pmap step; the next line goes to the next prompt', async () => {
    const out = await runRealConsole([...TO_NMT, NMT, '.', 'status']);
    expect(out).toContain(NMT_STEP);
    expect(out).not.toContain('does not look like');
    expect(out).toMatch(/\(answered\) What does the JVM itself account for\?: NMT summary: 458 MB committed/);
    expect(out).toContain(PMAP_STEP);
    // `status` after the paste is a command at the pmap step, not a line of the paste.
    expect(out).toMatch(/active {2}at "Are glibc arenas piling up\?"/);
  });

  it('goes on with a real pmap -x, read whole (every mapping counted), past the pmap step', async () => {
    const out = await runRealConsole([...TO_NMT, NMT, '.', PMAP, '.']);
    // 204 anonymous mappings: all of the capture's, not those before a blank line or a stray prompt.
    expect(out).toMatch(/\(answered\) Are glibc arenas piling up\?: .*in 204 mappings/);
    expect(out).not.toContain(`${PMAP_STEP}\n`.repeat(2));
    expect(out).not.toMatch(/^! /m);
    // 15 arenas holding under 3 MB are glibc's normal cap on 2 cores, not an arena problem.
    expect(out).toContain('Which state backend does the job use?');
    expect(out).not.toContain('glibc thread arenas');
  });

  it('ends at the end of input (Ctrl-D on a pipe) too', async () => {
    const out = await runRealConsole([...TO_NMT, NMT]);
    expect(out).toContain(PMAP_STEP);
  });

  it('names the console syntax, not a CLI flag, in the step hint', async () => {
    const out = await runRealConsole(TO_NMT);
    expect(out).toContain(
      'Then type . on a line of its own (or press Ctrl-D); blank lines in the output are kept.',
    );
    expect(out).not.toMatch(/--\w/);
  });
});

describe('a path at a paste step', () => {
  it('that names no file gets "no such file" and the step waits', async () => {
    const out = await runRealConsole([...TO_NMT, './nmt-output.txt', 'status']);
    expect(out).toContain('! no such file: ./nmt-output.txt');
    expect(out).toMatch(/active {2}at "What does the JVM itself account for\?"/);
  });

  it('that names a file is read as the output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-paste-'));
    const file = join(dir, 'nmt.txt');
    writeFileSync(file, `${NMT}\n`);
    try {
      const out = await runRealConsole([...TO_NMT, file]);
      expect(out).toContain(`(read the output from ${file})`);
      expect(out).toContain(PMAP_STEP);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the diagnose prompt', () => {
  const HEAP = 'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space';

  it('takes `glue <paste>` with the engine hint first, as Slack does', async () => {
    const plain = await runRealConsole([HEAP, '.']);
    const hinted = await runRealConsole([`glue ${HEAP}`, '.']);
    expect(plain).not.toContain('[glue-heap-oom');
    expect(hinted).toContain('[glue-heap-oom');
  });

  it('takes `glue` alone, then the paste', async () => {
    const out = await runRealConsole(['glue', HEAP, '', '  at Job.run(Job.java:42)', '.']);
    expect(out).toContain('Engine hint glue: now paste the error');
    expect(out).toContain('== paste (3 lines)');
    expect(out).toContain('[glue-heap-oom');
  });

  it('says "no such file" for a path that names none, and drops a stray "."', async () => {
    const out = await runRealConsole(['.', '/var/log/nope/driver.log', 'status']);
    expect(out).toContain('! no such file: /var/log/nope/driver.log');
    expect(out).not.toContain('== paste');
    expect(out).toContain('No active walkthroughs.');
  });
});

describe('on a terminal, with bracketed paste', () => {
  const paste = (text: string) => `\x1b[200~${text.replace(/\n/g, '\r')}\x1b[201~`;

  it('turns the mode on and off, and takes a paste whole without "."', async () => {
    const out = await runTerminalConsole([...TO_NMT.map((l) => `${l}\r`), paste(NMT), 'status\r']);
    expect(out).toContain('\x1b[?2004h');
    expect(out).toContain('\x1b[?2004l');
    expect(out).toMatch(/\(answered\) What does the JVM itself account for\?: NMT summary: 458 MB committed/);
    expect(out).toMatch(/active {2}at "Are glibc arenas piling up\?"/);
  });

  it('drops a "." typed after a paste the terminal already ended', async () => {
    const out = await runTerminalConsole([
      ...TO_NMT.map((l) => `${l}\r`),
      paste(`${NMT}\n`),
      '.\r',
      'status\r',
    ]);
    expect(out).toContain(PMAP_STEP);
    expect(out).not.toMatch(/^! /m);
    expect(out).toMatch(/active {2}at "Are glibc arenas piling up\?"/);
  });

  it('refuses a long paste at a step that wants a typed answer, whole', async () => {
    const out = await runTerminalConsole(['walk flink-container-oom-killed\r', paste(TOP), 'status\r']);
    expect(out).toMatch(/! this step does not take pasted output; the \d+ pasted lines were not used\./);
    expect(out).toMatch(/active {2}at "What killed the container\?"/);
    expect(out).not.toContain('answer with a number');
  });
});
