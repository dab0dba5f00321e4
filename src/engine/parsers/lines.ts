import { output, parseFailed } from './common.ts';
import type { Parser } from './types.ts';

/** Longest list worth bisecting: 64 names take six rounds. */
const MAX_ITEMS = 64;

/**
 * A name as people type them: transform or step names such as `ParseJson`, `Read from PubSub` or
 * `Enrich/Lookup`. Colons, braces, brackets, `=` and tabs belong to logs and command output, so a
 * pasted log is refused instead of being bisected line by line.
 */
const NAME = /^[^\s:={}[\]\t][^:={}[\]\t]{0,119}$/;

function names(head: readonly string[]): string[] {
  return head.map((l) => l.trim()).filter(Boolean);
}

/**
 * A plain list typed or pasted by a person, one name per line: the candidates of a bisection (a
 * pipeline's transforms, library versions). Blank lines and repeats are left out, as the walkthrough
 * does when it takes the lines as candidates.
 */
export const linesParser: Parser = {
  id: 'lines',
  title: 'a list of names',
  howToGet: 'the step names, typed one per line (no colons or brackets)',
  // Any short text could pass for a list, so only a walkthrough step that names this parser uses it.
  explicitOnly: true,
  detect(head) {
    const items = names(head);
    return items.length > 0 && items.every((item) => NAME.test(item));
  },
  create() {
    // A Set, not an array: `includes` on every line made a pasted log of 20,000 lines cost seconds.
    const seen = new Set<string>();
    let firstLine = 0;
    return {
      push(line, lineNo) {
        const item = line.trim();
        if (item === '' || seen.has(item)) return;
        if (seen.size === 0) firstLine = lineNo;
        seen.add(item);
      },
      finish() {
        const items = [...seen];
        if (items.length < 2)
          throw parseFailed(
            `at least two names, one per line, to split in halves (found ${items.length === 0 ? 'none' : 'one'})`,
          );
        if (items.length > MAX_ITEMS)
          throw parseFailed(
            `at most ${MAX_ITEMS} names (found ${items.length}); group small steps together so bisection stays short`,
          );
        const summary = `${items.length} names: ${items.slice(0, 5).join(', ')}${items.length > 5 ? ', …' : ''}`;
        return output('lines', { count: items.length }, summary, [], undefined, firstLine || 1);
      },
    };
  },
};
