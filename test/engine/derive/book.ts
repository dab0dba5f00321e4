import { type Fact, FactBook } from '../../../src/engine/facts.ts';

/** A fact book from `config` settings and other facts, in that order (line numbers follow it). */
export function bookOf(configs: Record<string, string>, ...facts: Array<[string, Fact['values']]>): FactBook {
  const book = new FactBook();
  let line = 0;
  for (const [key, value] of Object.entries(configs))
    book.add({ kind: 'config', values: { key, value }, line: ++line, text: `${key}=${value}` });
  for (const [kind, values] of facts) book.add({ kind, values, line: ++line, text: kind });
  return book;
}
