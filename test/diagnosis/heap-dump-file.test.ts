import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { heapNeedEstimate } from '../../src/diagnosis/heap-budget.ts';
import {
  checkCaseHeapDumps,
  diagnoseHeapDumpUpload,
  isHeapDumpRefusal,
  namedLikeHeapDump,
} from '../../src/diagnosis/heap-dump-file.ts';
import { InputBinaryError } from '../../src/errors.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';

/** Real dumps from live JDK 17 JVMs: test/fixtures/heap-dumps/SOURCES.md. */
const DIR = 'test/fixtures/heap-dumps';
const playbooks = loadPlaybooks();

/** A file's bytes as a download gives them: in pieces of 64 KiB. */
async function* pieces(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += 65536) yield bytes.subarray(at, at + 65536);
}

/** A stream that fails the test if it is read at all. */
const untouched = (): AsyncIterable<Uint8Array> => ({
  [Symbol.asyncIterator]() {
    throw new Error('the upload was read');
  },
});

describe('an uploaded heap dump, streamed to a temporary file', () => {
  let temp: string;
  beforeEach(() => {
    temp = mkdtempSync(join(tmpdir(), 'heapsurf-test-'));
  });
  afterEach(() => rmSync(temp, { recursive: true, force: true }));

  it('names the thread holding the leak from a second read of the file, then removes the file', async () => {
    const bytes = readFileSync(`${DIR}/local-variable-oom.hprof.gz`);
    let released = 0;
    const result = await diagnoseHeapDumpUpload(
      { source: 'java_pid1.hprof.gz', chunks: pieces(bytes), onRead: (n) => (released += n) },
      { playbooks, tempDir: temp },
    );
    const evidence = result.report.diagnoses[0]?.evidence.map((e) => e.text).join('\n') ?? '';
    expect(evidence).toContain('of thread "ingest-worker"');
    expect(evidence).not.toContain('thread #');
    expect(released).toBe(bytes.length);
    expect(readdirSync(temp)).toEqual([]);
  });

  it('removes the file when the analysis fails (a corrupt record)', async () => {
    const bad = Buffer.from('JAVA PROFILE 1.0.2\0\0\0\0\x09\0\0\0\0\0\0\0\0', 'latin1');
    await expect(
      diagnoseHeapDumpUpload({ source: 'x.hprof', chunks: pieces(bad) }, { playbooks, tempDir: temp }),
    ).rejects.toThrow('x.hprof: cannot read it: corrupt heap dump at byte 19');
    expect(readdirSync(temp)).toEqual([]);
  });

  it('says plainly that a file named .hprof is not a heap dump', async () => {
    const text = Buffer.from('2024-01-01 INFO started\n'.repeat(100));
    await expect(
      diagnoseHeapDumpUpload({ source: 'app.hprof', chunks: pieces(text) }, { playbooks, tempDir: temp }),
    ).rejects.toThrow(/app\.hprof: cannot read it: it is not a Java heap dump: an HPROF file starts with/);
    expect(readdirSync(temp)).toEqual([]);
  });

  it('refuses a dump whose announced size is over the budget before reading a byte of it', async () => {
    await expect(
      diagnoseHeapDumpUpload(
        { source: 'big.hprof', chunks: untouched(), announcedBytes: 2 * 1024 ** 3 },
        { playbooks, tempDir: temp, heapDumpBudget: 1024 ** 3 },
      ),
    ).rejects.toMatchObject({
      name: 'HeapDumpOverBudgetError',
      message: expect.stringContaining('MEMDOCTOR_HEAP_DUMP_BUDGET'),
    });
    expect(readdirSync(temp)).toEqual([]);
  });

  it('refuses a plain dump over the budget once its exact size is on disk, before the analysis', async () => {
    const plain = gunzipSync(readFileSync(`${DIR}/static-cache-oom.hprof.gz`));
    await expect(
      diagnoseHeapDumpUpload(
        { source: 'java_pid9.hprof', chunks: pieces(plain) },
        { playbooks, tempDir: temp, heapDumpBudget: 200 * 1024 ** 2 },
      ),
    ).rejects.toThrow(/java_pid9\.hprof: this heap dump is 65 MiB, so its analysis would need at least/);
    expect(readdirSync(temp)).toEqual([]);
  });
});

describe("a case's dumps checked before the case is read", () => {
  /** A file as the CLI gives it: its size and a read from any offset. */
  const fileOf = (bytes: Uint8Array) => ({ size: bytes.length, read: () => pieces(bytes) });

  it('refuses a plain dump of the case by its exact size, leaving the logs and stdin alone', async () => {
    const plain = gunzipSync(readFileSync(`${DIR}/static-cache-oom.hprof.gz`));
    const log = Buffer.from('java.lang.OutOfMemoryError: Java heap space\n');
    const inputs = [
      { source: 'app.log', seekable: fileOf(log) },
      { source: '-' },
      { source: 'java_pid3.hprof', seekable: fileOf(plain) },
    ];
    const need = heapNeedEstimate(plain.length);
    await expect(checkCaseHeapDumps(inputs, need)).resolves.toBeUndefined();
    await expect(checkCaseHeapDumps(inputs, need - 1024 ** 2)).rejects.toThrow(
      new RegExp(
        `^java_pid3\\.hprof: this heap dump is 65 MiB, so its analysis would need at least ${Math.round(need / 1024 ** 2)} MiB`,
      ),
    );
  });
});

describe('what goes to the heap analysis', () => {
  it('knows HotSpot dump names, gzip too', () => {
    expect(['java_pid42.hprof', 'heap.HPROF', 'x.hprof.gz'].map(namedLikeHeapDump)).toEqual([
      true,
      true,
      true,
    ]);
    expect(['app.log', 'hprof.txt', 'x.hprof.zip'].map(namedLikeHeapDump)).toEqual([false, false, false]);
  });

  it("recognises the engine's refusal of a dump sent as a log, and no other", () => {
    expect(isHeapDumpRefusal(new InputBinaryError('f', 'a Java heap dump (.hprof)'))).toBe(true);
    expect(isHeapDumpRefusal(new InputBinaryError('f', 'a PNG image'))).toBe(false);
  });
});
