import { createInterface, type Interface } from 'node:readline';

/** `next()` result when a terminal user pressed Ctrl-D: the end of a paste, not of the session. */
export const END_OF_PASTE = null;

/**
 * Reads input one line at a time, for terminals and pipes alike. On a pipe, the end of input is
 * final (`undefined`). On a terminal, Ctrl-D ends a paste (`null`) and reading goes on.
 */
export class LineReader {
  private readonly queue: (string | null)[] = [];
  private waiting: ((line: string | null | undefined) => void) | undefined;
  private ended = false;
  private rl: Interface | undefined;

  /** `output` echoes typing on a terminal (readline's raw mode does not echo by itself). */
  constructor(
    private readonly input: NodeJS.ReadableStream & { isTTY?: boolean },
    private readonly output?: NodeJS.WritableStream,
  ) {
    this.open();
  }

  get isTerminal(): boolean {
    return this.input.isTTY === true;
  }

  private open(): void {
    const rl = createInterface({
      input: this.input,
      ...(this.isTerminal && this.output ? { output: this.output } : {}),
      terminal: this.isTerminal,
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    this.rl = rl;
    rl.on('line', (line) => this.deliver(line));
    rl.on('close', () => {
      if (this.rl !== rl) return;
      if (this.isTerminal && !this.closedByUs) {
        this.deliver(END_OF_PASTE);
        this.open();
        return;
      }
      this.ended = true;
      this.waiting?.(undefined);
      this.waiting = undefined;
    });
  }

  private closedByUs = false;

  private deliver(line: string | null): void {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve(line);
    } else this.queue.push(line);
  }

  /** The next line; `null` for Ctrl-D on a terminal; `undefined` when input has ended. */
  next(): Promise<string | null | undefined> {
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift());
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /** Lines up to an empty line, Ctrl-D or the end of input: one pasted block. */
  async block(first: string): Promise<string> {
    const lines = [first];
    for (;;) {
      const line = await this.next();
      if (line === undefined || line === null || line.trim() === '') break;
      lines.push(line);
    }
    return lines.join('\n');
  }

  close(): void {
    this.closedByUs = true;
    this.rl?.close();
  }
}
