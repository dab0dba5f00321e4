import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { RangeFacts } from '../engine/block-read.ts';
import { type BlockFacts, type BlockJob, collectBlock } from '../engine/blocks.ts';
import { collectRange, type RangeJob, readFrom } from '../engine/ranges.ts';
import { fileIdentity, replacedError } from '../file-identity.ts';

/** 1 MiB reads, as the input's own reader takes them (cli/input.ts). */
const READ_BYTES = 1 << 20;
/** Buffers read into in turn: the engine keeps a chunk's bytes no longer than the next chunk's. */
const RING = 3;

/**
 * A file's bytes from `from` on, read into the same few buffers in turn; closed once the reader
 * stops. Refused when the file at the path is no longer the one with `identity` (fileIdentity).
 */
function* fileChunksFrom(path: string, from: number, identity?: string): Generator<Uint8Array> {
  const file = openSync(path, 'r');
  try {
    if (identity !== undefined && fileIdentity(fstatSync(file)) !== identity) throw replacedError(path);
    const ring = Array.from({ length: RING }, () => Buffer.allocUnsafeSlow(READ_BYTES));
    for (let position = from, turn = 0; ; turn++) {
      const buffer = ring[turn % RING] as Buffer;
      const bytesRead = readSync(file, buffer, 0, READ_BYTES, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    closeSync(file);
  }
}

/**
 * Runs in a block thread (block-pool.ts): the engine over one part of a large input, nothing else.
 * A block's bytes are shared memory (blocks.ts, SlabPool): only read here, never sent back. A range's
 * bytes are read here from the input itself (ranges.ts).
 */
export default function readBlock(job: BlockJob | RangeJob): BlockFacts | RangeFacts {
  if ('locator' in job) return collectRange(job, fileChunksFrom(job.locator, readFrom(job), job.identity));
  return collectBlock(job);
}
