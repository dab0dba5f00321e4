import type { BlockOptions } from '../../src/engine/blocks.ts';
import type { Extractor } from '../../src/engine/extractors/types.ts';
import { diagnoseStream, type ReadLimits } from '../../src/engine/index.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { sliced } from './ingest/read.ts';

/** The shipped playbooks, which the split-reading tests diagnose against. */
export const playbooks = loadPlaybooks();

/**
 * What the engine gives for `bytes` in chunks of `chunk`: read with `blocks` (blocks or ranges read
 * elsewhere), or without them every line in order. As text to compare, or the refusal's text.
 */
export async function outcome(
  bytes: Uint8Array,
  chunk: number,
  blocks?: BlockOptions,
  options: { extractors?: readonly Extractor[] } & ReadLimits = {},
): Promise<string> {
  try {
    const result = await diagnoseStream('input', sliced(bytes, chunk), playbooks, {
      ...(blocks ? { blocks } : { skim: false }),
      ...options,
    });
    // Which long lines count as cut differs by design: a skipped line was searched in full for every
    // literal, so nothing in it was lost; only lines read in part count.
    const { cut: _cut, ...same } = result;
    return JSON.stringify(same);
  } catch (error) {
    return `refused: ${String(error)}`;
  }
}

/** `line` `times` times, one per line. */
export const repeated = (line: string, times: number) => Array.from({ length: times }, () => line).join('\n');
