import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shippedWindowsJson } from '../../../src/engine/collector.ts';
import { isScannable, LiteralScanner, literalKey } from '../../../src/engine/ingest/literal-scan.ts';

const WINDOWS = new URL('../../../src/engine/ingest/windows.json', import.meta.url);

/** A global, case-insensitive alternation of the literals, longest first (the engine's old prefilter). */
function alternation(literals: readonly string[]): RegExp {
  const escaped = [...literals]
    .sort((a, b) => b.length - a.length)
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(escaped.join('|'), 'gi');
}

/** Every offset where some literal starts, by a case-insensitive regex. */
function starts(text: string, literals: readonly string[]): number[] {
  const re = alternation(literals);
  const found: number[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    found.push(m.index);
    re.lastIndex = m.index + 1;
  }
  return found;
}

/** The text with the letters whose bits are set in `bits` (the i-th letter by bit i % 31) upper-cased. */
function mixedCase(text: string, bits: number): string {
  return [...text].map((c, i) => ((bits >> (i % 31)) & 1 ? c.toUpperCase() : c)).join('');
}

const LITERALS = ['% ', 'k8s', 'exit', 'java heap space', 'yarn.', 'outofmemoryerror', 'oom-kill', 'sdk'];

describe('LiteralScanner', () => {
  it('finds a literal in whatever case, and nothing where none is', () => {
    const scanner = new LiteralScanner(LITERALS);
    const bytes = Buffer.from('INFO all fine\njava.lang.OutOfMemoryError: JAVA HEAP SPACE\n');
    const hit = scanner.find(bytes, 0, bytes.length);
    expect(hit).toBeGreaterThanOrEqual(bytes.indexOf('OutOfMemoryError'));
    expect(hit).toBeLessThan(bytes.indexOf('OutOfMemoryError') + 'OutOfMemoryError'.length);
    expect(scanner.find(bytes, 0, bytes.indexOf('\n'))).toBe(-1);
  });

  it('finds a two- and a three-byte literal at the very start and end of the range', () => {
    const scanner = new LiteralScanner(['% ', 'k8s']);
    expect(scanner.find(Buffer.from('% x'), 0, 3)).toBe(0);
    expect(scanner.find(Buffer.from('xx K8S'), 0, 6)).toBe(3);
    // Ending past `to` does not count.
    expect(scanner.find(Buffer.from('xx K8S'), 0, 5)).toBe(-1);
    // Starting before `from` does not count either.
    expect(scanner.find(Buffer.from('k8s'), 1, 3)).toBe(-1);
  });

  it('never folds a non-ASCII byte into a letter (UTF-8 Kelvin sign, Turkish dotted I)', () => {
    const scanner = new LiteralScanner(['kill', 'sdk']);
    const bytes = Buffer.from('\u212Aill SD\u212A \u0130', 'utf8');
    expect(scanner.find(bytes, 0, bytes.length)).toBe(-1);
  });

  it('counts a literal kept from following a character only where it does not follow it', () => {
    const scanner = new LiteralScanner([literalKey('yarn.', '.')]);
    const at = (text: string) => scanner.find(Buffer.from(text), 0, text.length);
    expect(at('org.apache.hadoop.yarn.server')).toBe(-1);
    expect(at('yarn.nodemanager.vmem-check-enabled=false')).toBe(0);
    expect(at('-Dyarn.x=1 and org.apache.hadoop.yarn.y')).toBe(2);
    expect(at('hadoop.yarn.a yarn.b=1')).toBe(14);
    const seen: string[] = [];
    scanner.each('hadoop.YARN.a, YARN.b=1', (id) => seen.push(scanner.literals[id] as string));
    expect(seen).toEqual([literalKey('yarn.', '.')]);
  });

  it('gives each of two scanners its own answers when they take turns with the shared kernel', () => {
    const oom = new LiteralScanner(['outofmemoryerror']);
    const yarn = new LiteralScanner(['exceeding memory limits']);
    const a = Buffer.from('x\njava.lang.OutOfMemoryError: Java heap space\n');
    const b = Buffer.from('y\nContainer killed by YARN for exceeding memory limits\n');
    for (let turn = 0; turn < 3; turn++) {
      expect(oom.find(a, 0, a.length)).toBe(a.indexOf('OutOfMemoryError'));
      expect(yarn.find(b, 0, b.length)).toBe(b.indexOf('exceeding'));
      // Each finds nothing in the other's bytes, though the kernel last held the other's tables.
      expect(oom.find(b, 0, b.length)).toBe(-1);
      expect(yarn.find(a, 0, a.length)).toBe(-1);
    }
  });

  it('windows.json is what the build chooses for the shipped triggers (run node scripts/build.mjs)', () => {
    expect(readFileSync(WINDOWS, 'utf8')).toBe(shippedWindowsJson());
  });

  it('finds literals the build chose no window for, and those it did, alike', () => {
    const built = Object.keys(JSON.parse(readFileSync(WINDOWS, 'utf8')) as Record<string, number>);
    const unshipped = ['qzx', 'zebra-quux', 'frobnicate the widget'];
    for (const literal of unshipped) expect(built).not.toContain(literal);
    expect(built).toContain('java heap space');
    const scanner = new LiteralScanner([...unshipped, 'java heap space']);
    const bytes = Buffer.from('a line\nthen FROBNICATE the Widget\nJava heap space\nqzx\n');
    for (const [from, literal] of [
      [0, 'frobnicate the widget'],
      [bytes.indexOf('Java'), 'java heap space'],
      [bytes.indexOf('qzx'), 'qzx'],
    ] as const) {
      const at = bytes.toString('latin1').toLowerCase().indexOf(literal, from);
      const hit = scanner.find(bytes, from, bytes.length);
      expect(hit).toBeGreaterThanOrEqual(at);
      expect(hit).toBeLessThan(at + literal.length);
    }
  });

  it('refuses literals it cannot look for, so the engine reads every line instead', () => {
    expect(isScannable('x')).toBe(false);
    expect(isScannable('ü-bahn')).toBe(false);
    expect(isScannable('a\nb')).toBe(false);
    expect(isScannable('oom')).toBe(true);
    expect(() => new LiteralScanner(['ok', 'é'])).toThrow(/not a scannable literal/);
  });

  it('agrees with the trigger regex on whether and where a line holds a literal', () =>
    fc.assert(
      fc.property(
        fc.array(
          fc
            .tuple(
              fc.oneof(fc.constantFrom(...LITERALS, 'JAVA', 'Exit', 'yarn', '%', ' '), fc.string()),
              fc.nat(),
            )
            .map(([part, caseBits]) => mixedCase(part, caseBits)),
          { maxLength: 12 },
        ),
        fc.integer({ min: 0, max: 8 }),
        (parts, cut) => {
          const text = parts.join('');
          const bytes = Buffer.from(text, 'latin1');
          const ascii = bytes.toString('latin1');
          const from = Math.min(cut, bytes.length);
          const expected = starts(ascii.slice(from), LITERALS).map((at) => at + from);
          const hit = new LiteralScanner(LITERALS).find(bytes, from, bytes.length);
          if (expected.length === 0) expect(hit).toBe(-1);
          else {
            // The hit lies inside the first literal found, so in the same line as its start.
            const first = expected[0] as number;
            const longest = Math.max(
              ...LITERALS.filter((l) => ascii.slice(first).toLowerCase().startsWith(l)).map((l) => l.length),
            );
            expect(hit).toBeGreaterThanOrEqual(first);
            expect(hit).toBeLessThan(first + longest);
          }
        },
      ),
      { numRuns: 500 },
    ));

  it('refuses a literal after a character it must not follow, but not at the start of the range', () => {
    const rules: [string, string][] = [
      ['yarn.', '.'],
      ['spark.', '.'],
      ['k8s', ''],
      ['glue.', '.x'],
    ];
    const keys = rules.map(([text, notAfter]) => literalKey(text, notAfter));
    fc.assert(
      fc.property(
        fc.array(
          fc
            .tuple(
              fc.constantFrom('.yarn.', 'yarn.', '.', 'x', 'spark.', '.spark.', 'K8S', 'xglue.', '\n'),
              fc.nat(),
            )
            .map(([part, caseBits]) => mixedCase(part, caseBits)),
          { maxLength: 12 },
        ),
        fc.integer({ min: 0, max: 12 }),
        (parts, cut) => {
          const text = parts.join('');
          const from = Math.min(cut, text.length);
          const lower = text.toLowerCase();
          const found = (at: number) =>
            rules.find(
              ([literal, notAfter]) =>
                lower.startsWith(literal, at) && (at === from || !notAfter.includes(lower[at - 1] as string)),
            );
          let first = -1;
          for (let at = from; at < text.length && first === -1; at++) if (found(at)) first = at;
          const hit = new LiteralScanner(keys).find(Buffer.from(text), from, text.length);
          if (first === -1) expect(hit).toBe(-1);
          else {
            expect(hit).toBeGreaterThanOrEqual(first);
            expect(hit).toBeLessThan(first + (found(first)?.[0].length as number));
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("finds in a line's UTF-8 bytes the literals it finds in the line's text", () => {
    const keys = [...LITERALS, literalKey('memory used'), literalKey('yarn', '.'), literalKey('ka', 'é')];
    fc.assert(
      fc.property(
        fc.array(
          fc
            .tuple(
              fc.oneof(
                fc.constantFrom(...LITERALS, 'MEMORY used', '.yarn', 'éka', '\u212a', 'ü', '\n', 'Exit'),
                fc.string(),
              ),
              fc.nat(),
            )
            .map(([part, caseBits]) => mixedCase(part, caseBits)),
          { maxLength: 16 },
        ),
        (parts) => {
          const scanner = new LiteralScanner(keys);
          const bytes = Buffer.from(`${parts.join('')}\n`);
          // The skimmer's order: a find over the region, then each line the bytes hold.
          scanner.find(bytes, 0, bytes.length);
          let start = 0;
          for (const line of bytes.toString().split('\n').slice(0, -1)) {
            const stop = bytes.indexOf(0x0a, start);
            const inText = new Set<number>();
            const inBytes = new Set<number>();
            scanner.each(line, (id) => inText.add(id));
            scanner.eachIn(bytes, start, stop, (id) => inBytes.add(id));
            expect([...inBytes].sort()).toEqual([...inText].sort());
            start = stop + 1;
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
