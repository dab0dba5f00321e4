import { move, transferableSymbol, valueSymbol } from 'piscina';
import { type BlockFacts, type BlockJob, collectBlock } from '../engine/blocks.ts';

/**
 * Runs in a block thread (block-pool.ts): the engine over one block of a large input, nothing else.
 * The block's slabs move back with its facts (not copied), for the next block's bytes.
 */
export default function readBlock(job: BlockJob): BlockFacts {
  const facts = collectBlock(job);
  const slabs = [...new Set((facts.chunks ?? []).map((chunk) => chunk.buffer as ArrayBuffer))];
  return move({ [transferableSymbol]: slabs, [valueSymbol]: facts }) as unknown as BlockFacts;
}
