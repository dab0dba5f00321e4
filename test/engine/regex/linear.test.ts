import { describe, expect, it } from 'vitest';
import { regexCensus, type SourceRegex } from './census.ts';
import { superlinear } from './growth.ts';
import { pumpCases } from './pumps.ts';

/*
 * Every regex written in src/ (found by parsing the TypeScript, so a new one is covered without being
 * listed) is timed on pathological inputs built from its own source, at n and 4n characters up to the
 * engine's 16 KiB line cut. Lines are attacker-shaped input: a paste, an upload, a thread reply.
 */

/** How a regex is used: `exec` once, or (global) every match, as `replace` and `matchAll` do. */
function runner(regex: SourceRegex): (input: string) => unknown {
  const re = new RegExp(regex.source, regex.flags);
  if (!re.global && !re.sticky) return (input) => re.exec(input);
  // `test` in a loop: the engine's work without building a match array per match (GC noise).
  return (input) => {
    re.lastIndex = 0;
    let at = 0;
    while (re.test(input)) {
      if (re.lastIndex === at) re.lastIndex++;
      at = re.lastIndex;
    }
  };
}

function findings(regex: SourceRegex, limit?: number): string[] {
  const cases = pumpCases(regex.source, regex.flags);
  return superlinear(runner(regex), cases, { limit }).map((f) => `${regex.where}: ${f}`);
}

const census = regexCensus();
const byFile = new Map<string, SourceRegex[]>();
for (const regex of census.regexes) {
  const file = regex.where.replace(/:\d+$/, '');
  byFile.set(file, [...(byFile.get(file) ?? []), regex]);
}

describe('the regex census', () => {
  it('finds the regexes of src/, literals and constant `new RegExp` alike', () => {
    expect(census.regexes.length).toBeGreaterThan(300);
    const sources = census.regexes.map((r) => r.source);
    // A literal, a String.raw template with a constant inside, and a constant joined from strings.
    expect(sources).toContain(String.raw`(?<!\d)(\d+(?:\.\d+)?)\s?([kmgt]i?b?|b)\b`);
    expect(sources.some((s) => s.startsWith(String.raw`^\s*(\S.*?:\d+): size=(\d+`))).toBe(true);
    expect(sources.some((s) => s.includes('(?:password|passwd|secret|'))).toBe(true);
  });

  it('leaves only the trigger prefilter and tests built at run time (escaped literals, timed by adversarial.test.ts)', () => {
    const where = census.dynamic.map((d) => d.where.replace(/:\d+$/, ''));
    expect(where.length).toBe(6);
    // The data families' patterns are built from compiled.json (and checked by its compiler); the
    // census times them from that file.
    expect(new Set(where)).toEqual(
      new Set([
        'src/engine/triggers.ts',
        'src/engine/extractors/data-families.ts',
        'src/engine/extractors/families/compile.ts',
        // The operator's routing matchers (MEMDOCTOR_ALERTS): checked when the file loads, matched
        // whole against values of at most 1,024 characters (src/alerts/route.ts).
        'src/alerts/config.ts',
        'src/alerts/route.ts',
      ]),
    );
  });

  it('times the patterns of the message families kept as data', () => {
    const data = census.regexes.filter((r) => r.where.startsWith('src/engine/extractors/families/'));
    expect(data.map((r) => r.source)).toContain(String.raw`\bGlue Job is unhealthy! Shutting down`);
  });
});

describe('the probe finds what it is for', () => {
  // The patterns this suite replaced, as they were: each took seconds on a 100k-character line.
  it.each([
    ['nmt category', String.raw`^\s*-?\s*([A-Za-z][A-Za-z .]*?)\s+\(reserved=(\d+)`],
    ['tracemalloc stat', String.raw`^\s*(.+?:\d+): size=(\d+(?:\.\d+)?\s?[KMGT]?i?B)`],
    ['gc-log transition', String.raw`(\d+(?:\.\d+)?[KMG])->(\d+(?:\.\d+)?[KMG])\((\d+(?:\.\d+)?[KMG])\)`],
    ['gc-log unified', String.raw`GC\((\d+)\)\s+(Pause [A-Za-z]+)[^\n]*?\s(\d+[KMG])->(\d+[KMG])`],
    ['SIZE_PATTERN', String.raw`(\d+(?:\.\d+)?)\s?([kmgt]i?b?|b)\b`],
    ['closing fence', '^`+|`+$'],
    ['a word then a digit', String.raw`\bmemory\b.*\d`],
  ])('%s', (_name, source) => {
    // Timing is noisy on a shared machine: a growth missed once is looked for again, up to 3 times.
    const regex = { where: 'old', source, flags: source === '^`+|`+$' ? 'g' : 'i' };
    let found: string[] = [];
    for (let attempt = 0; attempt < 3 && found.length === 0; attempt++) found = findings(regex, 1);
    expect(found).not.toEqual([]);
  });
});

describe('every regex in src/ is linear', () => {
  it.each([...byFile.keys()])('%s', (file) => {
    // Three findings per regex say enough, and keep a failing run short.
    expect((byFile.get(file) ?? []).flatMap((regex) => findings(regex, 3))).toEqual([]);
  });
});
