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

interface Waiter {
  bytes: number;
  admit(): void;
}

/**
 * A cap on the bytes of pastes and uploads in hand at once (MEMDOCTOR_MAX_INFLIGHT_BYTES), so a
 * burst of large uploads cannot take the process's memory: past it an input waits, and is refused
 * with a "try again" after INFLIGHT_WAIT_MS. Whatever fits is let in, oldest first, so a paste is
 * not held behind a large upload that does not fit yet. One input larger than the cap runs alone.
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
    await this.acquire(bytes);
    try {
      return await work();
    } finally {
      this.held -= bytes;
      this.admitWaiting();
    }
  }

  private fits(bytes: number): boolean {
    return this.held === 0 || this.held + bytes <= this.capBytes;
  }

  private acquire(bytes: number): Promise<void> {
    if (this.fits(bytes)) {
      this.held += bytes;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        bytes,
        admit: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(new InflightBusyError(this.held, this.capBytes));
        this.admitWaiting();
      }, this.waitMs);
      this.waiting.push(waiter);
    });
  }

  /** Admits, oldest first, every waiting input that fits now. */
  private admitWaiting(): void {
    for (const waiter of [...this.waiting]) {
      if (!this.fits(waiter.bytes)) continue;
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      this.held += waiter.bytes;
      waiter.admit();
    }
  }
}
