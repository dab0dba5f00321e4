import { type BlockFacts, type BlockJob, collectBlock } from '../engine/blocks.ts';

/**
 * Runs in a block thread (block-pool.ts): the engine over one block of a large input, nothing else.
 * The block's bytes are shared memory (blocks.ts, SlabPool): only read here, never sent back.
 */
export default function readBlock(job: BlockJob): BlockFacts {
  return collectBlock(job);
}
