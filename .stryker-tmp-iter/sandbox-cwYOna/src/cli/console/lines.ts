// @ts-nocheck
import { createInterface, type Interface } from 'node:readline';

/** `next()` result when a terminal user pressed Ctrl-D: the end of a paste, not of the session. */
export const END_OF_PASTE = null;

/** `next()` result where a terminal marked the end of a paste (bracketed-paste mode). */
export const BRACKETED_END: unique symbol = Symbol('end of a bracketed paste');

/** What `next()` gives: a line, Ctrl-D, the end of a bracketed paste, or `undefined` at the end of input. */
export type Item = string | typeof END_OF_PASTE | typeof BRACKETED_END;

/** A line holding only this ends a typed or piped paste; blank lines are part of real outputs. */
export const PASTE_TERMINATOR = '.';

// Bracketed-paste mode: the terminal wraps pasted text in ESC[200~ ... ESC[201~, which readline
// reports as the keys `paste-start` and `paste-end`.
const BRACKETED_ON = '\x1b[?2004h';
const BRACKETED_OFF = '\x1b[?2004l';

/**
 * Reads input one line at a time, for terminals and pipes alike. On a pipe, the end of input is
 * final (`undefined`). On a terminal, Ctrl-D ends a paste (`null`) and reading goes on, and with
 * bracketed paste each pasted line is marked as pasted and the paste's end is `BRACKETED_END`.
 */
export class LineReader {
  private readonly queue: { item: Item; pasted: boolean }[] = [];
  private waiting: ((item: Item | undefined) => void) | undefined;
  private ended = false;
  private rl: Interface | undefined;
  private closedByUs = false;
  private pasting = false;
  /** Whether the item `next()` returned last came from a bracketed paste. */
  lastPasted = false;

  /** `output` echoes typing on a terminal (readline's raw mode does not echo by itself). */
  constructor(
    private readonly input: NodeJS.ReadableStream & { isTTY?: boolean },
    private readonly output?: NodeJS.WritableStream,
  ) {
    this.open();
    if (this.isTerminal) {
      input.on('keypress', (_s: string, key: { name?: string } | undefined) => this.onKey(key?.name));
      this.output?.write(BRACKETED_ON);
    }
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

  private onKey(name: string | undefined): void {
    if (name === 'paste-start') this.pasting = true;
    if (name !== 'paste-end') return;
    // A paste without a final newline leaves its last line in the edit buffer: it belongs to the paste.
    if (this.rl && this.rl.line !== '') this.rl.write('\n');
    this.pasting = false;
    this.deliver(BRACKETED_END, true);
  }

  private deliver(item: Item, pasted = this.pasting): void {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      this.lastPasted = pasted;
      resolve(item);
    } else this.queue.push({ item, pasted });
  }

  /** The next line; `null` for Ctrl-D on a terminal; `BRACKETED_END` after a paste; `undefined` at the end. */
  next(): Promise<Item | undefined> {
    const queued = this.queue.shift();
    if (queued) {
      this.lastPasted = queued.pasted;
      return Promise.resolve(queued.item);
    }
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /**
   * One pasted block starting with `first`. A bracketed paste ends where the terminal marks its end;
   * typed or piped text ends at a line holding only `.`, at Ctrl-D or at the end of input. Blank
   * lines never end it: NMT summaries, `top -b` and tracebacks have them.
   */
  async block(first: string): Promise<string> {
    const lines = [first];
    for (;;) {
      const item = await this.next();
      if (item === undefined || item === END_OF_PASTE || item === BRACKETED_END) break;
      if (!this.lastPasted && item.trim() === PASTE_TERMINATOR) break;
      lines.push(item);
    }
    return lines.join('\n');
  }

  close(): void {
    this.closedByUs = true;
    if (this.isTerminal) this.output?.write(BRACKETED_OFF);
    this.rl?.close();
  }
}
