import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The chunks in pieces of at most `size` bytes, each after `ms`: a reader slower than the threads,
 * as on a machine busy with other work.
 */
export async function* paced(
  chunks: AsyncIterable<Uint8Array>,
  ms: number,
  size = 64 * 1024,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += size) {
      await sleep(ms);
      yield chunk.subarray(at, at + size);
    }
  }
}

/**
 * As `paced`, but the k-th piece also waits (up to `patienceMs`, once) until `done()` reaches k: a reader that
 * stays behind the threads however slowly a loaded machine runs them (at load 20 the threads of a
 * 10 ms-paced reader read 10 of a 2 MB file's 32 ranges, and "most of it from its end" did not hold).
 */
export async function* behind(
  chunks: AsyncIterable<Uint8Array>,
  done: () => number,
  { ms = 10, patienceMs = 2_000, size = 64 * 1024 } = {},
): AsyncGenerator<Uint8Array> {
  let k = 0;
  let waiting = true;
  for await (const piece of paced(chunks, ms, size)) {
    const until = Date.now() + patienceMs;
    while (waiting && done() < k && Date.now() < until) await sleep(5);
    // Threads that made no progress in patienceMs are not coming: read on, and let the test say so.
    waiting &&= done() >= k;
    k += 1;
    yield piece;
  }
}
