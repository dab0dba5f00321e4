import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's gc extension: `{ type: 'minor' }` asks for a scavenge of the young generation only. */
type MinorGc = (options: { type: 'minor' }) => void;

let minorGc: MinorGc | null | undefined;

/**
 * V8's gc function, got once without `--expose-gc` on the command line: the flag exposes `gc` in
 * contexts made while it is set (so in a new vm context, not the running one), and is unset at once
 * so that later contexts and worker threads get no `gc` global. Null where that yields no function.
 */
function gcFunction(): MinorGc | null {
  if (minorGc !== undefined) return minorGc;
  setFlagsFromString('--expose-gc');
  try {
    const gc: unknown = runInNewContext('typeof gc === "function" ? gc : null');
    minorGc = typeof gc === 'function' ? (gc as MinorGc) : null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return minorGc;
}

/**
 * Frees the buffers a stream has handed out and nobody holds any more, by a scavenge of the young
 * generation (well under a millisecond with diagnose's 2 MiB one).
 *
 * Why: zlib gives each output chunk a fresh buffer outside V8's heap, freed only when a collection
 * finds its holder dead. With the threads reading the blocks, the reading thread only copies each
 * chunk into a slab and allocates so little that the young generation seldom fills: dead gunzip
 * output piled up to V8's external-memory trigger (issue 24: 37 MiB of buffers, against 18 for the
 * same log plain).
 */
export function sweepYoungGeneration(): void {
  gcFunction()?.({ type: 'minor' });
}
