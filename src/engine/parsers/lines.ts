import { ParseFailedError } from '../../errors.ts';
import type { Parser } from './types.ts';

/** Longest list worth bisecting: 64 names take six rounds. */
const MAX_ITEMS = 64;

/**
 * A plain list typed or pasted by a person, one name per line: the candidates of a bisection (a
 * pipeline's transforms, library versions). Blank lines and repeats are left out,
 * as the walkthrough does when it takes the lines as candidates.
 */
export const lines: Parser = {
  id: 'lines',
  title: 'a list of names, one per line',
  howToGet: 'nothing special: type or paste the names, one per line,',
  // Any text can be a list; an empty one is refused in finish() with a message that says so.
  detect: () => true,
  create() {
    const items: string[] = [];
    return {
      push(line) {
        const item = line.trim();
        if (item === '' || items.includes(item)) return;
        items.push(item);
      },
      finish() {
        if (items.length < 2)
          throw new ParseFailedError(
            `found ${items.length === 0 ? 'no names' : 'only one name'}: give at least two, one per line, so they can be split in halves.`,
          );
        if (items.length > MAX_ITEMS)
          throw new ParseFailedError(
            `found ${items.length} names; give at most ${MAX_ITEMS} (group small ones together) so bisection stays short.`,
          );
        return {
          format: 'lines',
          facts: [],
          values: { count: items.length },
          summary: `${items.length} names: ${items.slice(0, 5).join(', ')}${items.length > 5 ? ', …' : ''}`,
        };
      },
    };
  },
};
