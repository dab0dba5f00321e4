import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { readLines } from '../engine/ingest/lines.ts';
import { LineSelector, type Selection, type SelectLimits } from './select.ts';

/**
 * Lets the line selector see the same bytes as the engine in one pass, so stdin (which cannot be
 * read twice) works like a file. The engine's stream is passed through untouched; a copy goes to a
 * second reader (same gunzip and line splitting as the engine, so line numbers agree) that feeds a
 * LineSelector. Backpressure is kept: the engine waits when the copy is not drained.
 */
export class SelectionTap {
  private readonly copy = new PassThrough();
  private readonly selector: LineSelector;
  private readonly done: Promise<void>;
  private failed = false;

  constructor(source: string, limits: SelectLimits = {}) {
    this.selector = new LineSelector(limits);
    this.done = this.consume(source).catch(() => {
      // The engine reads the same bytes and reports the same failure; the selection just stops.
      this.failed = true;
      this.copy.resume();
    });
  }

  private async consume(source: string): Promise<void> {
    const batches = await readLines(source, this.copy, { bytes: 0, lines: 0 });
    for await (const batch of batches) this.selector.push(batch);
  }

  /** The engine's input, unchanged; every chunk is also copied to the selector. */
  async *wrap(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of chunks) {
        // A copy: the engine's side may move the chunk's memory to another thread (engine-pool,
        // block-pool), which would empty it under the selector.
        if (!this.failed && !this.copy.write(Buffer.from(chunk)))
          await Promise.race([once(this.copy, 'drain'), this.done]);
        yield chunk;
      }
    } finally {
      this.copy.end();
    }
  }

  /** The selected lines, once the engine has read the whole input; undefined if the copy failed. */
  async selection(): Promise<Selection | undefined> {
    this.copy.end();
    await this.done;
    return this.failed ? undefined : this.selector.result();
  }
}
