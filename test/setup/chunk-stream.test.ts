import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { ChunkSender, PIECE_BYTES, receiveChunks, WINDOW_BYTES } from '../../src/setup/chunk-stream.ts';
import { waitFor } from '../slack/support/harness.ts';

// Both ends in this thread: a MessagePort behaves the same between two ends of one thread as
// between threads, transfers included (a moved buffer is emptied on the sending side).

const senders: ChunkSender[] = [];
afterEach(() => {
  for (const sender of senders.splice(0)) sender.stop();
});

function channel(chunks: AsyncIterable<Uint8Array>, onRead?: (bytes: number) => void, windowBytes?: number) {
  const { port1, port2 } = new MessageChannel();
  const sender = new ChunkSender(chunks, port1, onRead, windowBytes);
  senders.push(sender);
  return { sender, received: receiveChunks(port2) };
}

async function* from(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

/** `n` bytes counting 0..250 over and over, so a piece out of place shows. */
function counting(n: number): Buffer {
  return Buffer.from(Array.from({ length: n }, (_, i) => i % 251));
}

describe('ChunkSender and receiveChunks', () => {
  it('tells onRead of the bytes still unacknowledged when it stops, once, so every byte sent is told', async () => {
    const read: number[] = [];
    const { port1, port2 } = new MessageChannel();
    const sender = new ChunkSender(from([counting(1000), counting(500)]), port1, (bytes) => read.push(bytes));
    senders.push(sender);
    // The thread's side takes both pieces and acknowledges neither (its acknowledgement of the last
    // is lost when the task's answer arrives first and the port is closed).
    const pieces: Uint8Array[] = [];
    port2.on('message', (message: { chunk?: Uint8Array }) => {
      if (message.chunk) pieces.push(message.chunk);
    });
    await waitFor(() => pieces.length === 2 || undefined);
    expect(read).toEqual([]);
    sender.stop();
    sender.stop();
    expect(read).toEqual([1500]);
    port2.close();
  });

  it('deliver every byte in order, in pieces of at most PIECE_BYTES', async () => {
    const whole = counting(3 * PIECE_BYTES + 1234);
    // A view into a larger buffer, a chunk larger than a piece, and small chunks of their own.
    const parts = [
      whole.subarray(0, 10),
      new Uint8Array(whole.subarray(10, 2 * PIECE_BYTES + 20)),
      whole.subarray(2 * PIECE_BYTES + 20),
    ];
    const { received } = channel(from(parts));
    const got = await collect(received);
    expect(Buffer.concat(got).equals(whole)).toBe(true);
    expect(Math.max(...got.map((c) => c.length))).toBeLessThanOrEqual(PIECE_BYTES);
    expect(got.length).toBeGreaterThanOrEqual(4);
  });

  it('moves a small chunk that owns its buffer, and copies a view into a shared one', async () => {
    const own = new Uint8Array([1, 2, 3]);
    const shared = Buffer.from([4, 5, 6, 7, 8, 9]);
    const view = shared.subarray(2, 4);
    const { received } = channel(from([own, view]));
    expect(Buffer.concat(await collect(received))).toEqual(Buffer.from([1, 2, 3, 6, 7]));
    expect(own.byteLength).toBe(0);
    expect([...view]).toEqual([6, 7]);
  });

  it('opens at its first piece, though a first chunk larger than the window waits for the reader', async () => {
    const whole = counting(WINDOW_BYTES * 3);
    const { sender, received } = channel(from([new Uint8Array(whole)]));
    // Nothing reads yet (a pool gives the task to a thread only once this resolves).
    await sender.opened;
    expect(Buffer.concat(await collect(received)).equals(whole)).toBe(true);
  });

  it('pulls no further ahead of the reader than its window', async () => {
    let pulled = 0;
    async function* source(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 100; i++) {
        pulled += 100;
        yield new Uint8Array(100);
      }
    }
    const reads: number[] = [];
    const { received } = channel(source(), (bytes) => reads.push(bytes), 1000);
    await waitFor(() => pulled >= 1000 || undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // One chunk more than the window: the one taken from the source that waits for room.
    expect(pulled).toBeLessThanOrEqual(1100);
    expect(reads).toEqual([]);
    expect(Buffer.concat(await collect(received)).length).toBe(10_000);
    await waitFor(() => reads.reduce((a, b) => a + b, 0) === 10_000 || undefined);
  });

  it('ends the read with an error when the source fails part way, and keeps the source’s own error', async () => {
    const broken = new Error('socket hang up');
    async function* source(): AsyncGenerator<Uint8Array> {
      yield new Uint8Array(10);
      throw broken;
    }
    const { sender, received } = channel(source());
    await sender.opened;
    await expect(collect(received)).rejects.toThrow(/socket hang up/);
    expect(sender.failure?.error).toBe(broken);
  });

  it('rejects `opened` with the source’s error when it fails before its first bytes', async () => {
    async function* source(): AsyncGenerator<Uint8Array> {
      yield* [];
      throw new Error('sign-in page');
    }
    const { sender } = channel(source());
    await expect(sender.opened).rejects.toThrow(/sign-in page/);
  });

  it('an empty source ends the read at once', async () => {
    const { sender, received } = channel(from([]));
    await sender.opened;
    expect(await collect(received)).toEqual([]);
  });

  it('stop() cancels the source, and the reader hears that the stream went away', async () => {
    let cancelled = false;
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        for (;;) yield new Uint8Array(100);
      } finally {
        cancelled = true;
      }
    }
    const { sender, received } = channel(source(), undefined, 1000);
    await sender.opened;
    const reading = (async () => {
      for await (const _ of received) await new Promise((resolve) => setTimeout(resolve, 50));
    })();
    sender.stop();
    await waitFor(() => cancelled || undefined);
    await expect(reading).rejects.toThrow(/closed before its end/);
  });
});
