import { type BlockFacts, type BlockJob, collectBlock } from '../engine/blocks.ts';

/** Runs in a block thread (block-pool.ts): the engine over one block of a large input, nothing else. */
export default function readBlock(job: BlockJob): BlockFacts {
  return collectBlock(job);
}
