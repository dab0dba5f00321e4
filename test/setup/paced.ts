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
