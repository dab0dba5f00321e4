import { ErrorCode, MemdoctorError } from '../errors.ts';

/** How long an input waits for others' bytes to be released before the person is told to retry. */
export const INFLIGHT_WAIT_MS = 30_000;

const MiB = 1024 * 1024;

/** An input refused because the bytes of the inputs already in hand fill the cap. */
export class InflightBusyError extends MemdoctorError {
  constructor(heldBytes: number, capBytes: number) {
    super(
      ErrorCode.Internal,
      `memdoctor is busy: it holds ${Math.ceil(heldBytes / MiB)} MiB of other inputs (its limit is ${Math.ceil(capBytes / MiB)} MiB). Try again in a minute.`,
    );
    this.name = 'InflightBusyError';
  }
}

/** What an input read as a stream holds of the cap (InflightBytes.stream). */
export interface StreamHold {
  /** The stream, each chunk counted once it is in hand; waits for room first (see InflightBytes). */
  count(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array>;
  /** Bytes the reader is done with: they no longer count. */
  release(bytes: number): void;
  /** Releases whatever is still counted; a chunk still waiting for room is refused. */
  close(): void;
}

/** One input's share: a paste holds its size; a stream what it has in hand, chunk by chunk. */
interface Share {
  held: number;
  /** A stream that has had a chunk let in: it is being read, so it may always go on (see fits). */
  started: boolean;
}

interface Waiter {
  bytes: number;
  share: Share;
  admit(): void;
  reject(error: Error): void;
}

/**
 * A cap on the bytes of pastes and uploads in hand at once (MEMDOCTOR_MAX_INFLIGHT_BYTES), so a
 * burst of large uploads cannot take the process's memory: past it an input waits, and is refused
 * with a "try again" after INFLIGHT_WAIT_MS. Whatever fits is let in, oldest first, so a paste is
 * not held behind a large upload that does not fit yet. One input larger than the cap runs alone.
 *
 * A paste holds its size until its result. An upload is counted as it streams: each chunk from when
 * it is in hand until the engine has read it, so what counts is what is held, not the file's size.
 * An upload already being read that holds nothing may always take its next chunk: inputs waiting
 * behind it in the engine's queue must not stop it (the cap may be passed by one chunk per such upload).
 */
export class InflightBytes {
  private held = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly capBytes: number,
    private readonly waitMs = INFLIGHT_WAIT_MS,
  ) {}

  /** Bytes held by inputs being read or diagnosed now. */
  get bytesHeld(): number {
    return this.held;
  }

  /** Runs `work` holding `bytes` of the cap; throws InflightBusyError when no room came in time. */
  async hold<T>(bytes: number, work: () => Promise<T>): Promise<T> {
    const share: Share = { held: 0, started: false };
    await this.acquire(bytes, share);
    try {
      return await work();
    } finally {
      this.give(share, share.held);
    }
  }

  /** A share for an input read as a stream; close it once the input's result is in. */
  stream(): StreamHold {
    const share: Share = { held: 0, started: false };
    let closed = false;
    const enter = async (bytes: number) => {
      if (closed) throw new InflightBusyError(this.held, this.capBytes);
      await this.acquire(bytes, share);
      share.started = true;
    };
    return {
      count: async function* (chunks) {
        for await (const chunk of chunks) {
          await enter(chunk.length);
          yield chunk;
        }
      },
      release: (bytes) => this.give(share, Math.min(bytes, share.held)),
      close: () => {
        closed = true;
        this.dropWaiting(share);
        this.give(share, share.held);
      },
    };
  }

  private fits(bytes: number, share: Share): boolean {
    if (share.started && share.held === 0) return true;
    return this.held === 0 || this.held + bytes <= this.capBytes;
  }

  private give(share: Share, bytes: number): void {
    share.held -= bytes;
    this.held -= bytes;
    this.admitWaiting();
  }

  private take(share: Share, bytes: number): void {
    share.held += bytes;
    this.held += bytes;
  }

  private acquire(bytes: number, share: Share): Promise<void> {
    if (this.fits(bytes, share)) {
      this.take(share, bytes);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(new InflightBusyError(this.held, this.capBytes));
        this.admitWaiting();
      }, this.waitMs);
      const waiter: Waiter = {
        bytes,
        share,
        admit: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.waiting.push(waiter);
    });
  }

  /** A closed stream's chunk still waiting for room: refused, it is no longer wanted. */
  private dropWaiting(share: Share): void {
    for (const waiter of this.waiting.filter((w) => w.share === share)) {
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      waiter.reject(new InflightBusyError(this.held, this.capBytes));
    }
  }

  /** Admits, oldest first, every waiting input that fits now. */
  private admitWaiting(): void {
    for (const waiter of [...this.waiting]) {
      if (!this.fits(waiter.bytes, waiter.share)) continue;
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      this.take(waiter.share, waiter.bytes);
      waiter.admit();
    }
  }
}
