/**
 * The keys of one NDJSON log line's top-level object, in order and with repeats. JSON.parse keeps
 * only the last of a repeated key, so a test that parses lines cannot see a duplicate; this reads
 * the line's own text.
 */
export function topLevelKeys(line: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === '"') {
      const end = stringEnd(line, i);
      if (depth === 1 && line[end + 1] === ':') keys.push(JSON.parse(line.slice(i, end + 1)) as string);
      i = end + 1;
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    i++;
  }
  return keys;
}

/** The index of the quote closing the string that opens at `start`. */
function stringEnd(line: string, start: number): number {
  let i = start + 1;
  while (i < line.length && line[i] !== '"') i += line[i] === '\\' ? 2 : 1;
  return i;
}

/** Keys that occur more than once in a line. */
export function repeatedKeys(line: string): string[] {
  const keys = topLevelKeys(line);
  return [...new Set(keys.filter((k, i) => keys.indexOf(k) !== i))];
}
