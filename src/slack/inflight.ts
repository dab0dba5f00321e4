import { ErrorCode, InputTooLargeError, MemdoctorError } from '../errors.ts';

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
  /**
   * The stream in pieces of at most `pieceBytes` (never more than the cap), each counted before it
   * is handed on; a piece waits for room first.
   */
  count(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array>;
  /** Bytes the reader is done with: they no longer count. */
  release(bytes: number): void;
  /** Takes `bytes` more only if they fit now (a copy kept beside the stream); false when they do not. */
  tryTake(bytes: number): boolean;
  /** Releases whatever is still counted; a piece still waiting for room is refused. */
  close(): void;
}

/** One input's share of the cap. */
interface Share {
  held: number;
}

interface Waiter {
  bytes: number;
  /** Admitted only while the bytes held stay at or under this (a waiting paste: half the cap). */
  ceiling: number;
  share: Share;
  admit(): void;
  reject(error: Error): void;
}

/** Largest piece of a stream counted at once: a download reads at most this much per read (download.ts). */
export const STREAM_PIECE_BYTES = 64 * 1024;

/** The pieces of `chunk`, each at most `most` bytes (views, no copy). */
function* piecesOf(chunk: Uint8Array, most: number): Generator<Uint8Array> {
  if (chunk.length <= most) return yield chunk;
  for (let at = 0; at < chunk.length; at += most) yield chunk.subarray(at, at + most);
}

/**
 * A cap on the bytes of pastes and uploads in hand at once (MEMDOCTOR_MAX_INFLIGHT_BYTES), so a
 * burst of large uploads cannot take the process's memory: past it an input waits, and is refused
 * with a "try again" after INFLIGHT_WAIT_MS. Whatever fits is let in, oldest first, so a paste is
 * not held behind a large upload that does not fit yet. What is counted never passes the cap: an
 * input larger than the cap is refused at once, and a stream is counted piece by piece.
 *
 * A paste holds its size until its result. An upload is counted as it streams: each piece from when
 * it is in hand until the engine has read it, so what counts is what is held, not the file's size.
 * A paste waiting for a thread is in memory too, so it counts from when it arrives, but is let in
 * only while the cap is under half full: the other half stays for the inputs being read, whose room
 * always comes back. A case's input is counted as a diagnosis' is: its reader keeps no lines.
 */
export class InflightBytes {
  private held = 0;
  private peak = 0;
  private readonly waiting: Waiter[] = [];

  /**
   * @param waitMs how long an input waits for room before it is refused.
   * @param onChange told the bytes held after every change (the app's gauge, tests).
   */
  constructor(
    readonly capBytes: number,
    private readonly waitMs = INFLIGHT_WAIT_MS,
    private readonly onChange?: (heldBytes: number) => void,
  ) {}

  /** Bytes held by inputs being read or diagnosed now. */
  get bytesHeld(): number {
    return this.held;
  }

  /** The most bytes ever held at once: never more than the cap. */
  get peakBytes(): number {
    return this.peak;
  }

  /** The largest piece a stream is counted in: a piece, or the cap when that is smaller. */
  get pieceBytes(): number {
    return Math.min(STREAM_PIECE_BYTES, this.capBytes);
  }

  /**
   * Runs `work` holding `bytes` of the cap; throws InflightBusyError when no room came in time.
   * `ceiling`: let in only while what is held stays under it (what an input waiting for a thread may
   * take, so the rest stays for the inputs being read).
   */
  async hold<T>(bytes: number, work: () => Promise<T>, ceiling = this.capBytes): Promise<T> {
    // It could never fit: waiting would only delay the same answer.
    if (bytes > this.capBytes) throw new InputTooLargeError('this input', this.capBytes);
    const share: Share = { held: 0 };
    await this.acquire(bytes, share, Math.max(bytes, Math.min(ceiling, this.capBytes)));
    try {
      return await work();
    } finally {
      this.give(share, share.held);
    }
  }

  /** A share for an input read as a stream; close it once the input's result is in. */
  stream(): StreamHold {
    const share: Share = { held: 0 };
    let closed = false;
    const most = this.pieceBytes;
    const enter = async (bytes: number) => {
      if (closed) throw new InflightBusyError(this.held, this.capBytes);
      await this.acquire(bytes, share, this.capBytes);
    };
    return {
      count: async function* (chunks) {
        for await (const chunk of chunks)
          for (const piece of piecesOf(chunk, most)) {
            await enter(piece.length);
            yield piece;
          }
      },
      release: (bytes) => this.give(share, Math.min(bytes, share.held)),
      tryTake: (bytes) => {
        if (closed || this.waiting.length > 0 || !this.fits(bytes)) return false;
        this.take(share, bytes);
        return true;
      },
      close: () => {
        closed = true;
        this.dropWaiting(share);
        this.give(share, share.held);
      },
    };
  }

  private fits(bytes: number, ceiling = this.capBytes): boolean {
    return this.held + bytes <= ceiling;
  }

  private give(share: Share, bytes: number): void {
    if (bytes <= 0) return;
    share.held -= bytes;
    this.held -= bytes;
    this.onChange?.(this.held);
    this.admitWaiting();
  }

  private take(share: Share, bytes: number): void {
    share.held += bytes;
    this.held += bytes;
    this.peak = Math.max(this.peak, this.held);
    this.onChange?.(this.held);
  }

  private acquire(bytes: number, share: Share, ceiling: number): Promise<void> {
    if (this.fits(bytes, ceiling)) {
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
        ceiling,
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

  /** A closed stream's piece still waiting for room: refused, it is no longer wanted. */
  private dropWaiting(share: Share): void {
    for (const waiter of this.waiting.filter((w) => w.share === share)) {
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      waiter.reject(new InflightBusyError(this.held, this.capBytes));
    }
  }

  /** Admits, oldest first, every waiting input that fits now. */
  private admitWaiting(): void {
    for (const waiter of [...this.waiting]) {
      if (!this.fits(waiter.bytes, waiter.ceiling)) continue;
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      this.take(waiter.share, waiter.bytes);
      waiter.admit();
    }
  }
}
