import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_HEAP_DUMP_BUDGET, loadConfig } from '../../src/config.ts';
import { budgetGuard, checkDumpSize, heapNeedEstimate } from '../../src/diagnosis/heap-budget.ts';
import { diagnose, type HeapDumpRead } from '../../src/diagnosis/index.ts';
import { fileChunks } from '../../src/file-chunks.ts';
import { seekableFile } from '../../src/file-input.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';

/** Real dumps from live JDK 17 JVMs: test/fixtures/heap-dumps/SOURCES.md. */
const GZ = 'test/fixtures/heap-dumps/static-cache-oom.hprof.gz';
const MiB = 1024 ** 2;
const playbooks = loadPlaybooks();
const dir = mkdtempSync(join(tmpdir(), 'memdoctor-budget-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The dump decompressed, as `java -XX:+HeapDumpOnOutOfMemoryError` writes it: 68,525,347 bytes. */
function plainDump(): string {
  const path = join(dir, 'java_pid4242.hprof');
  writeFileSync(path, gunzipSync(readFileSync(GZ)));
  return path;
}

/** A file as the CLI gives it (src/cli/commands/diagnose.ts). */
function fileInput(path: string) {
  const seekable = seekableFile(path);
  return { source: path, chunks: fileChunks(path), ...(seekable ? { seekable } : {}) };
}

/** How much of the whole read one report says is done: its passes before it, and its share of this one. */
function shareOf(read: HeapDumpRead): number {
  return read.pass - 1 + read.bytesRead / (read.totalBytes ?? Number.NaN);
}

async function refusal(run: Promise<unknown>): Promise<Error> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  if (!error) throw new Error('the dump was analysed, not refused');
  return error;
}

describe('the heap dump budget', () => {
  it('estimates 160 MiB plus 2.5 bytes per dump byte', () => {
    expect(heapNeedEstimate(0)).toBe(160 * MiB);
    expect(heapNeedEstimate(1024 * MiB)).toBe(160 * MiB + 2.5 * 1024 * MiB);
  });

  it('refuses a plain dump past the budget before reading a byte, saying what it needs and what to do', async () => {
    const path = plainDump();
    const reads: HeapDumpRead[] = [];
    const error = await refusal(
      diagnose(
        { input: fileInput(path), workspace: 'cli', onHeapDumpRead: (r) => reads.push(r) },
        { playbooks, heapDumpBudget: 200 * MiB },
      ),
    );
    expect(error.message).toBe(
      `${path}: this heap dump is 65 MiB, so its analysis would need at least 323 MiB of memory, over the budget of 200 MiB (MEMDOCTOR_HEAP_DUMP_BUDGET). On a machine with that much memory free, raise it: MEMDOCTOR_HEAP_DUMP_BUDGET=1g memdoctor diagnose ${path}. Or copy the dump to a bigger machine (a cloud VM with 323 MiB or more) and run \`npx memdoctor diagnose ${path}\` there: nothing else is needed, and nothing leaves that machine.`,
    );
    expect(reads).toEqual([]);
  });

  it('the default budget reads the same dump, telling its progress against the file size', async () => {
    const path = plainDump();
    const reads: HeapDumpRead[] = [];
    const result = await diagnose(
      { input: fileInput(path), workspace: 'cli', onHeapDumpRead: (r) => reads.push(r) },
      { playbooks, heapDumpBudget: loadConfig({}).MEMDOCTOR_HEAP_DUMP_BUDGET },
    );
    expect(result.heap?.suspects[0]?.className).toBe('java.util.HashMap');
    expect(reads.length).toBeGreaterThan(3);
    // Each of the three passes is told, each to the whole file, so progress is not full after the first.
    for (const [pass, what] of [
      [1, 'objects'],
      [2, 'references'],
      [3, 'thread names'],
    ] as const)
      expect(reads.filter((r) => r.pass === pass).at(-1)).toEqual({
        pass,
        passes: 3,
        what,
        bytesRead: 68525347,
        totalBytes: 68525347,
      });
    expect(reads.every((r, i) => i === 0 || shareOf(r) > shareOf(reads[i - 1] as HeapDumpRead))).toBe(true);
  });

  it('a .gz dump: no total in its first pass, then the decompressed bytes that pass counted', async () => {
    const reads: HeapDumpRead[] = [];
    await diagnose(
      { input: fileInput(GZ), workspace: 'cli', onHeapDumpRead: (r) => reads.push(r) },
      { playbooks, heapDumpBudget: loadConfig({}).MEMDOCTOR_HEAP_DUMP_BUDGET },
    );
    expect(reads.filter((r) => r.pass === 1).every((r) => r.totalBytes === undefined)).toBe(true);
    const later = reads.filter((r) => r.pass > 1);
    expect(later.length).toBeGreaterThan(1);
    expect(later.every((r) => r.totalBytes === 68525347)).toBe(true);
    expect(later.at(-1)).toMatchObject({ pass: 3, passes: 3, bytesRead: 68525347 });
  });

  it('a .gz dump: its size is unknown up front, so the read stops once the decompressed bytes pass the budget', async () => {
    const reads: HeapDumpRead[] = [];
    const error = await refusal(
      diagnose(
        { input: fileInput(GZ), workspace: 'cli', onHeapDumpRead: (r) => reads.push(r) },
        { playbooks, heapDumpBudget: 200 * MiB },
      ),
    );
    expect(error.message).toMatch(
      /^test\/fixtures\/heap-dumps\/static-cache-oom\.hprof\.gz: this heap dump is over 16 MiB decompressed \(the read stopped there; the rest of it needs more\), so its analysis would need at least \d+ MiB of memory, over the budget of 200 MiB \(MEMDOCTOR_HEAP_DUMP_BUDGET\)\./,
    );
    // No total for gzip (the compressed size is no measure of the decompressed bytes read).
    expect(reads.every((r) => r.totalBytes === undefined)).toBe(true);
    expect(reads.at(-1)?.bytesRead ?? Infinity).toBeLessThan(68525347);
  });

  it('a .gz whose compressed size alone is past the budget is refused before the read', () => {
    expect(() =>
      checkDumpSize('x.hprof.gz', { bytes: 4 * 1024 * MiB, exact: false }, 8 * 1024 * MiB),
    ).toThrow(
      'x.hprof.gz: this gzip-compressed heap dump is 4.0 GiB compressed (more once decompressed), so its analysis would need at least 10.2 GiB of memory, over the budget of 8.0 GiB (MEMDOCTOR_HEAP_DUMP_BUDGET). On a machine with that much memory free, raise it: MEMDOCTOR_HEAP_DUMP_BUDGET=11g',
    );
    expect(() =>
      checkDumpSize('x.hprof.gz', { bytes: 100 * MiB, exact: false }, 8 * 1024 * MiB),
    ).not.toThrow();
  });

  it('the guard lets a read up to the largest dump within the budget, and stops the byte after', () => {
    const guard = budgetGuard('x.hprof', 160 * MiB + 2.5 * 100);
    expect(() => guard(100)).not.toThrow();
    expect(() => guard(101)).toThrow('MEMDOCTOR_HEAP_DUMP_BUDGET');
  });
});

describe('MEMDOCTOR_HEAP_DUMP_BUDGET', () => {
  const budget = (value?: string) =>
    loadConfig(value === undefined ? {} : { MEMDOCTOR_HEAP_DUMP_BUDGET: value }).MEMDOCTOR_HEAP_DUMP_BUDGET;

  it('defaults to 8 GiB, a third of a 24 GiB machine', () => {
    expect(budget()).toBe(8 * 1024 ** 3);
    expect(DEFAULT_HEAP_DUMP_BUDGET).toBe(8 * 1024 ** 3);
    expect(budget('')).toBe(8 * 1024 ** 3);
  });

  it('reads binary sizes', () => {
    expect(budget('4g')).toBe(4 * 1024 ** 3);
    expect(budget('512m')).toBe(512 * MiB);
    expect(budget('1.5G')).toBe(1.5 * 1024 ** 3);
    expect(budget('16GiB')).toBe(16 * 1024 ** 3);
    expect(budget('4096')).toBe(4096);
  });

  it('names the variable and the form for anything else', () => {
    for (const bad of ['lots', '-1g', '0', '4x', '1e9'])
      expect(() => budget(bad)).toThrow(/must be a size such as 8g[\s\S]*at MEMDOCTOR_HEAP_DUMP_BUDGET/);
  });
});
