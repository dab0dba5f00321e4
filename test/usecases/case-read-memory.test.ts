import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readHere } from '../../src/usecases/add-to-case.ts';

/*
 * Issue 35, item 8: what a case keeps of one input is bounded, whatever the input's size. A 32 MiB
 * log (HUDI-9339's real NodeManager log, test/fixtures/case/SOURCES.md, then ordinary Spark lines)
 * is read for its case; at its last chunk, the heap the read holds is measured after a full
 * collection. Reading every line first held them all (the worker's heap grew about 48 MB per
 * 32 MiB upload in bench:upload); read batch by batch, only the stored keys, facts and times stay.
 */

const MiB = 1024 * 1024;
const NODEMANAGER = readFileSync(
  join(import.meta.dirname, '..', 'fixtures', 'case', 'hudi-9339', 'nodemanager.log'),
);
const ORDINARY = Buffer.from(
  '23/08/01 18:20:01 INFO TaskSetManager: Finished task 3.0 in stage 7.0 (TID 42) in 1234 ms on host-17 (executor 5) (3/200)\n',
);
const LAST = Buffer.from('23/08/01 19:45:30 INFO SparkContext: Successfully stopped SparkContext\n');

// A full collection on demand, so the heap measured is what is still held, not garbage.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The heap in use after a full collection. */
function heldBytes(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * The NodeManager log, ordinary lines in fresh 64 KiB chunks to `bytes`, then one last line;
 * `atLast` is called just before the last chunk is given.
 */
async function* largeLog(bytes: number, atLast: () => void): AsyncGenerator<Uint8Array> {
  yield Buffer.from(NODEMANAGER);
  const perChunk = Math.floor((64 * 1024) / ORDINARY.length);
  for (let sent = NODEMANAGER.length; sent < bytes; sent += perChunk * ORDINARY.length)
    yield Buffer.concat(Array.from({ length: perChunk }, () => ORDINARY));
  atLast();
  yield Buffer.from(LAST);
}

describe('what a case keeps of a large input', () => {
  it('is bounded while it is read, and its keys, facts and times are still stored', async () => {
    const before = heldBytes();
    let atLast = Number.NaN;
    const chunks = largeLog(32 * MiB, () => {
      atLast = heldBytes() - before;
    });
    const stored = await readHere({ source: 'nodemanager.log', chunks, maxBytes: 64 * MiB });
    // 32 MiB of text read: held as lines it was over 32 MiB of heap; read batch by batch, a few MiB.
    expect(stored.bytes).toBeGreaterThan(32 * MiB);
    expect(atLast).toBeLessThan(8 * MiB);
    // The facts and keys of its first lines, and the time of its very last one, are kept.
    expect(stored.keys.first.map((k) => k.key.value)).toContain('container_e07_1669378398064_0904_01_000002');
    expect(stored.book.groups.map((g) => g.kind)).toContain('container.killed-memory');
    expect(stored.time?.last).toBe('2023-08-01T19:45:30.000Z');
    expect(stored.lines).toBeGreaterThan(250_000);
  }, 60_000);
});
