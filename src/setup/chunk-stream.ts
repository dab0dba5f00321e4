import type { MessagePort } from 'node:worker_threads';
import { ownsItsBuffer } from '../engine/blocks.ts';
import { ErrorCode, MemdoctorError, messageOf } from '../errors.ts';

/**
 * Moves a byte stream (a download) into a worker thread as it arrives, with backpressure: the
 * reading side sends pieces of at most PIECE_BYTES over a MessagePort, never more than WINDOW_BYTES
 * that the thread has not read yet, and only pulls the next chunk from its source when there is
 * room. So an input costs a few pieces at a time, however large it is.
 */

/** Bytes sent and not yet read by the thread; past it the source is not read. */
export const WINDOW_BYTES = 256 * 1024;
/** Largest piece sent at once: a source that yields one huge chunk is still sent in small steps. */
export const PIECE_BYTES = 64 * 1024;

/** From the reading side to the thread. */
type ToThread = { chunk: Uint8Array } | { end: true } | { fail: string };
/** From the thread: the bytes of a piece the engine has read (it asked for the next one). */
type FromThread = { read: number };

/**
 * The pieces of a chunk, each with memory of its own so that it can move to the thread: a small
 * chunk that spans its own buffer (what fetch gives) moves as it is, anything else is copied.
 */
function* pieces(chunk: Uint8Array): Generator<Uint8Array> {
  if (chunk.length <= PIECE_BYTES && ownsItsBuffer(chunk)) return yield chunk;
  for (let at = 0; at < chunk.length; at += PIECE_BYTES)
    yield new Uint8Array(chunk.subarray(at, at + PIECE_BYTES));
}

/**
 * The reading side: pulls `chunks`, sends them to the thread at the other end of `port`, and tells
 * `onRead` of the bytes the thread has read (at `stop()`, of the rest it was sent). `stop()` ends it
 * (the task settled or was stopped) and cancels the source.
 */
export class ChunkSender {
  /** Resolves once the first bytes were sent (or the source ended empty); rejects if it failed first. */
  readonly opened: Promise<void>;
  private unread = 0;
  private stopped = false;
  private wake: (() => void) | undefined;
  private failed: { error: unknown } | undefined;

  constructor(
    chunks: AsyncIterable<Uint8Array>,
    private readonly port: MessagePort,
    private readonly onRead?: (bytes: number) => void,
    private readonly windowBytes = WINDOW_BYTES,
  ) {
    port.on('message', (message: FromThread) => this.read(message.read));
    port.once('close', () => this.stop());
    let open: (failed?: { error: unknown }) => void = () => {};
    const opened = new Promise<{ error: unknown } | undefined>((resolve) => {
      open = resolve;
    });
    this.opened = opened.then((failed) => {
      if (failed) throw failed.error;
    });
    void this.pump(chunks, open);
  }

  /** The source's error, when reading it failed: the thread was told, and stopped reading. */
  get failure(): { error: unknown } | undefined {
    return this.failed;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.wake?.();
    this.port.close();
    // The thread is done with every piece sent: the task settled or was stopped. Its last
    // acknowledgement may still be on its way on this port (the task's answer travels on another
    // and can arrive first), and a closed port drops it; so the bytes not yet acknowledged are told
    // here, and onRead hears of every byte sent exactly once.
    const unacknowledged = this.unread;
    this.unread = 0;
    if (unacknowledged > 0) this.onRead?.(unacknowledged);
  }

  private read(bytes: number): void {
    this.unread -= bytes;
    this.onRead?.(bytes);
    this.wake?.();
  }

  private async pump(
    chunks: AsyncIterable<Uint8Array>,
    open: (failed?: { error: unknown }) => void,
  ): Promise<void> {
    const source = chunks[Symbol.asyncIterator]();
    let sent = false;
    try {
      for (let next = await source.next(); !next.done && !this.stopped; next = await source.next())
        for (const piece of pieces(next.value)) {
          await this.send(piece);
          // Open at the first piece: the rest of a large first chunk waits for the thread to read.
          if (!sent) open();
          sent = true;
        }
      this.post({ end: true });
      open();
    } catch (error) {
      this.failed = { error };
      this.post({ fail: messageOf(error) });
      open(sent ? undefined : this.failed);
    } finally {
      // Stopped early (the engine failed, the budget ran out): cancel the download behind it.
      if (this.stopped) await source.return?.().catch(() => undefined);
    }
  }

  private async send(piece: Uint8Array): Promise<void> {
    while (this.unread >= this.windowBytes && !this.stopped)
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    this.unread += piece.length;
    this.post({ chunk: piece }, [piece.buffer as ArrayBuffer]);
  }

  private post(message: ToThread, transfer: ArrayBuffer[] = []): void {
    if (!this.stopped) this.port.postMessage(message, transfer);
  }
}

/**
 * The thread's side: the pieces sent over `port`, in order, as the engine asks for them. Reading a
 * piece is acknowledged when the next one is asked for. Throws when the reading side failed or
 * went away.
 */
export async function* receiveChunks(port: MessagePort): AsyncGenerator<Uint8Array> {
  const inbox: ToThread[] = [];
  let wake: (() => void) | undefined;
  const deliver = (message: ToThread) => {
    inbox.push(message);
    wake?.();
  };
  port.on('message', deliver);
  port.once('close', () => deliver({ fail: 'the input stream was closed before its end' }));
  for (;;) {
    while (inbox.length === 0)
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    const message = inbox.shift() as ToThread;
    if ('end' in message) return;
    if ('fail' in message) throw new MemdoctorError(ErrorCode.InputUnreadable, message.fail);
    yield message.chunk;
    port.postMessage({ read: message.chunk.length } satisfies FromThread);
  }
}
