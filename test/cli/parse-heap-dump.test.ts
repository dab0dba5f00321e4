import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { corruptedDump } from '../support/heap-dumps.ts';
import { cli } from './in-process.ts';

/** Real dumps from live JDK 17 JVMs (test/fixtures/heap-dumps/SOURCES.md). */
const DIR = 'test/fixtures/heap-dumps';
const LOCAL = `${DIR}/local-variable-oom.hprof.gz`;

/** `diagnose`'s notes for a dump: its header, then the evidence lines `parse heap-dump` prints. */
function diagnoseLines(err: string): string[] {
  return err
    .split('\n')
    .filter((line) => line.startsWith('memdoctor: '))
    .map((line) => line.slice('memdoctor: '.length))
    .slice(1);
}

describe('memdoctor parse heap-dump', () => {
  let temp: string;
  beforeAll(() => {
    temp = mkdtempSync(join(tmpdir(), 'heapsurf-parse-'));
  });
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it('prints the lines diagnose cites, numbered alike, the thread named from the dump', async () => {
    const parsed = await cli(['parse', 'heap-dump', LOCAL]);
    expect(parsed.code).toBe(0);
    const diagnosed = await cli(['diagnose', LOCAL]);
    const lines = diagnoseLines(diagnosed.err);
    expect(lines.length).toBeGreaterThan(2);
    for (const [i, line] of lines.entries())
      expect(parsed.out).toContain(`${String(i + 1).padStart(2)}. ${line}\n`);
    expect(parsed.out).toContain('of thread "ingest-worker"');
    expect(parsed.out).toMatch(
      /^heap-dump: \S+local-variable-oom\.hprof\.gz: HPROF 1\.0\.2, 8-byte ids, complete\n/,
    );
    expect(parsed.out).toMatch(/\n {2}byte\[\] +14646 instances +29\.5 MB\n/);
  });

  it('--json: the same lines and facts as diagnose, and the report', async () => {
    const { code, out } = await cli(['parse', 'heap-dump', LOCAL, '--json']);
    expect(code).toBe(0);
    const parsed = JSON.parse(out) as {
      format: string;
      lines: string[];
      findings: { kind: string }[];
      heap: { suspects: { className: string }[] };
    };
    const diagnosed = await cli(['diagnose', LOCAL]);
    expect(parsed.format).toBe('heap-dump');
    expect(parsed.lines).toEqual(diagnoseLines(diagnosed.err));
    expect(parsed.findings.map((f) => f.kind)).toContain('heap-dump.leak');
    expect(parsed.heap.suspects[0]?.className).toBe('java.util.ArrayList');
  });

  it('says where a dump cut short ends', async () => {
    const { code, out } = await cli(['parse', 'heap-dump', `${DIR}/truncated-mid.hprof.gz`]);
    expect(code).toBe(0);
    expect(out).toContain('cut short at byte 33496382');
    expect(out).toContain('heap dump cut short: read to byte 33496382');
  });

  it('a corrupt dump: exit 2 with the offset and what was expected', async () => {
    const { bytes, offset } = corruptedDump();
    const path = join(temp, 'corrupt.hprof');
    writeFileSync(path, bytes);
    const { code, out, err } = await cli(['parse', 'heap-dump', path]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain(
      `corrupt.hprof: cannot read it: corrupt heap dump at byte ${offset}: expected a heap dump sub-record tag`,
    );
  });

  it('a file named .hprof that is not a dump: exit 2, saying what a dump looks like', async () => {
    const path = join(temp, 'notes.hprof');
    writeFileSync(path, 'java.lang.OutOfMemoryError: Java heap space\n');
    const { code, err } = await cli(['parse', 'heap-dump', path]);
    expect(code).toBe(2);
    expect(err).toContain(
      'notes.hprof: cannot read it: it is not a Java heap dump: an HPROF file starts with "JAVA PROFILE 1.0"',
    );
  });

  it('is listed by parse list', async () => {
    const { out } = await cli(['parse', 'list']);
    expect(out).toMatch(/^heap-dump {16}Java heap dump/m);
  });

  it('on a terminal, its progress line runs through the three passes, full only at the end of the last', async () => {
    vi.stubEnv('TERM', 'xterm-256color');
    const stdin = new PassThrough();
    stdin.end();
    const lines: string[] = [];
    const stderr = { isTTY: true, write: (t: string) => lines.push(t) };
    // 68,525,347 bytes decompressed: past PROGRESS_FROM_BYTES, so the line is drawn.
    const args = ['parse', 'heap-dump', `${DIR}/static-cache-oom.hprof.gz`];
    const code = await runCli(args, { stdin, stdout: { write: () => true }, stderr }).finally(() =>
      vi.unstubAllEnvs(),
    );
    expect(code).toBe(0);
    const drawn = lines.filter((l) => l.includes('memdoctor: reading'));
    const first = drawn.filter((l) => l.includes('pass 1 of 3 (objects)'));
    const full = drawn.findIndex((l) => l.includes('100%'));
    expect(first.length).toBeGreaterThan(0);
    // A .gz's first pass cannot know its decompressed size; the later ones know it from the first.
    expect(first.every((l) => l.endsWith('decompressed so far'))).toBe(true);
    expect(
      drawn.some((l) => / (3[3-9]|[45]\d|6[0-6])% pass 2 of 3 \(references\), \d+ MiB of 65 MiB/.test(l)),
    ).toBe(true);
    expect(drawn[full]).toContain('100% pass 3 of 3 (thread names), 65 MiB of 65 MiB');
    expect(full).toBe(drawn.length - 1);
  });
});
