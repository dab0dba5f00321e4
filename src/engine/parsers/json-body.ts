import type { z } from 'zod';
import { parseFailed } from './common.ts';

/**
 * The text of a JSON answer pasted whole (a REST response), kept up to a cap, with the first line
 * that holds anything: the line its facts cite. A run that reads JSON holds one and pushes to it.
 */
export class JsonBody {
  private body = '';
  private firstLine = 0;

  constructor(private readonly maxChars: number) {}

  push(line: string, lineNo: number): void {
    if (this.body.length > this.maxChars) return;
    if (!this.firstLine && line.trim()) this.firstLine = lineNo;
    this.body += `${line}\n`;
  }

  get text(): string {
    return this.body;
  }

  /** The line the facts cite: the first that holds anything, or 1 for an empty paste. */
  get line(): number {
    return this.firstLine || 1;
  }

  /** The parsed JSON, or the parser's "could not parse" naming what it expected. */
  parse(expected: string): unknown {
    try {
      return JSON.parse(this.body);
    } catch {
      throw parseFailed(expected);
    }
  }

  /**
   * The parsed JSON in the shape `schema` reads, or the parser's "could not parse": `notJson` names the
   * answer expected when the text is no JSON, `wrongShape` what was expected when it is other JSON.
   */
  parseAs<T extends z.ZodType>(schema: T, expected: { notJson: string; wrongShape: string }): z.infer<T> {
    const parsed = schema.safeParse(this.parse(expected.notJson));
    if (!parsed.success) throw parseFailed(expected.wrongShape);
    return parsed.data;
  }
}
