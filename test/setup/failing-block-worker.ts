import { readFileSync } from 'node:fs';
import type { BlockJob } from '../../src/engine/blocks.ts';
import type { RangeJob } from '../../src/engine/ranges.ts';
import readBlock from '../../src/setup/block-worker.ts';

/** Lines that make this test thread fail while reading their block, each its own way. */
export const FAIL_LINE = {
  /** Keeps allocating until the thread passes its heap limit: ERR_WORKER_OUT_OF_MEMORY, for real. */
  heap: 'MEMDOCTOR-TEST: run this thread out of its heap',
  /** Throws, as a bug in the engine would. */
  throws: 'MEMDOCTOR-TEST: throw while reading this block',
  /** Ends the thread (process.exit in a worker stops that thread only). */
  exits: 'MEMDOCTOR-TEST: end this thread',
} as const;

function runOutOfHeap(): never {
  const kept: string[][] = [];
  for (;;) kept.push(Array.from({ length: 100_000 }, (_, i) => `kept ${i} ${kept.length}`));
}

/** A block's bytes, or (roughly: from its start to its end) a range's, read from the file. */
function textOf(job: BlockJob | RangeJob): string {
  if (!('locator' in job)) return Buffer.concat(job.chunks).toString('latin1');
  return readFileSync(job.locator).subarray(job.start, job.end).toString('latin1');
}

/**
 * The block thread (src/setup/block-worker.ts) with a way to fail mid-block: a block or range holding
 * one of FAIL_LINE's lines fails, after its bytes reached this thread; every other one is read as usual.
 */
export default function readOrFail(job: BlockJob | RangeJob) {
  const text = textOf(job);
  if (text.includes(FAIL_LINE.heap)) runOutOfHeap();
  if (text.includes(FAIL_LINE.throws)) throw new Error('a bug while reading a block');
  if (text.includes(FAIL_LINE.exits)) process.exit(3);
  return readBlock(job);
}
