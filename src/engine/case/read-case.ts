import { InputTooLargeError } from '../../errors.ts';
import { type InputStats, readLines } from '../ingest/lines.ts';
import type { CaseInput } from './join.ts';
import { type StoredInput, StoredInputReader } from './stored.ts';

/** How much one case reads: past these, inputs are left out and the answer says which and why. */
export interface CaseLimits {
  maxInputs: number;
  maxBytes: number;
}

export const DEFAULT_CASE_LIMITS: CaseLimits = { maxInputs: 8, maxBytes: 64 * 1024 * 1024 };

/** An input as given: its name and its bytes (plain or gzip). */
export interface RawCaseInput {
  source: string;
  chunks: AsyncIterable<Uint8Array>;
}

export interface LeftOut {
  source: string;
  reason: string;
}

export interface ReadCase {
  inputs: (CaseInput & { stats: InputStats })[];
  leftOut: LeftOut[];
}

/** Reads one input's lines, up to `maxBytes` of text (InputTooLargeError past it). */
export async function readCaseInput(
  input: RawCaseInput,
  maxBytes: number,
): Promise<CaseInput & { stats: InputStats }> {
  const stats: InputStats = { bytes: 0, lines: 0 };
  const lines: string[] = [];
  for await (const batch of await readLines(input.source, input.chunks, stats, { maxBytes }))
    lines.push(...batch);
  return { name: input.source, lines, stats };
}

/**
 * Reads one input, up to `maxBytes` of text (InputTooLargeError past it), straight into what a case
 * stores: the same as storedInput over readCaseInput's lines, but each batch of lines is let go once
 * its keys, facts and times are read, so a large upload costs a batch at a time, not all its lines.
 */
export async function readStoredInput(input: RawCaseInput, maxBytes: number): Promise<StoredInput> {
  const stats: InputStats = { bytes: 0, lines: 0 };
  const reader = new StoredInputReader(input.source);
  for await (const batch of await readLines(input.source, input.chunks, stats, { maxBytes }))
    reader.push(batch);
  return reader.finish(stats.bytes);
}

/**
 * Reads the inputs of a case in order, within its limits: the inputs past `maxInputs`, and an input
 * that would take the case past `maxBytes`, are left out (unread) with the reason; the rest are read.
 * Other read errors (missing file, binary input) are thrown, as for a single input.
 */
export async function readCase(raw: readonly RawCaseInput[], limits: CaseLimits): Promise<ReadCase> {
  const read: ReadCase = { inputs: [], leftOut: [] };
  let bytes = 0;
  for (const [index, input] of raw.entries()) {
    if (index >= limits.maxInputs) {
      read.leftOut.push({ source: input.source, reason: `a case holds at most ${limits.maxInputs} inputs` });
      continue;
    }
    try {
      const one = await readCaseInput(input, limits.maxBytes - bytes);
      bytes += one.stats.bytes;
      read.inputs.push(one);
    } catch (error) {
      if (!(error instanceof InputTooLargeError)) throw error;
      read.leftOut.push({
        source: input.source,
        reason: `the case would pass its limit of ${limits.maxBytes} bytes (${bytes} read before it)`,
      });
    }
  }
  return read;
}
