// @ts-nocheck
import { type InputStats, type ReadLimits, readLines } from '../../../src/engine/ingest/lines.ts';

/** Yields the given chunks as a byte stream, like a file or socket would. */
export async function* chunksOf(...parts: ReadonlyArray<string | Uint8Array>): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
}

/** Splits bytes into chunks of `size`, to exercise boundaries inside lines and characters. */
export async function* sliced(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** Reads a whole stream through the ingest pipeline; returns every line and the stats. */
export async function readAll(
  chunks: AsyncIterable<Uint8Array>,
  limits: ReadLimits = {},
): Promise<{ lines: string[]; stats: InputStats }> {
  const stats: InputStats = { bytes: 0, lines: 0 };
  const lines: string[] = [];
  for await (const batch of await readLines('test-input', chunks, stats, limits)) lines.push(...batch);
  return { lines, stats };
}
