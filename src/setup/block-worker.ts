import type { RangeFacts } from '../engine/block-read.ts';
import { type BlockFacts, type BlockJob, collectBlock } from '../engine/blocks.ts';
import { collectRange, type RangeJob, readFrom } from '../engine/ranges.ts';
import { fileChunksSync } from '../file-chunks.ts';

/**
 * Runs in a block thread (block-pool.ts): the engine over one part of a large input, nothing else.
 * A block's bytes are shared memory (blocks.ts, SlabPool): only read here, never sent back. A range's
 * bytes are read here from the input itself (ranges.ts).
 */
export default function readBlock(job: BlockJob | RangeJob): BlockFacts | RangeFacts {
  if ('locator' in job) return collectRange(job, fileChunksSync(job.locator, readFrom(job), job.identity));
  return collectBlock(job);
}
