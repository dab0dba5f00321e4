import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

/*
 * Hostile inputs for the fuzz tests: real outputs (parser fixtures, playbook fixtures) mutated the
 * way pastes go wrong and the way an attacker would shape them, plus random text, huge lines, NUL
 * bytes, lone surrogates, invalid UTF-8 and deeply nested JSON and YAML.
 */
const ROOT = join(import.meta.dirname, '..', '..', '..');
const PARSER_FIXTURES = join(ROOT, 'test', 'engine', 'parsers', 'fixtures');
const PLAYBOOKS = join(ROOT, 'playbooks');
/** Fixtures larger than this are cut to it: a mutation of the head says as much, and runs stay fast. */
const MAX_FIXTURE_CHARS = 64 * 1024;

function textFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => !f.endsWith('.yaml') && !f.endsWith('.md'))
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

function read(path: string): string {
  return readFileSync(path, 'utf8').slice(0, MAX_FIXTURE_CHARS);
}

/** The real outputs of one parser (its fixture folder). */
export function parserFixtures(id: string): string[] {
  return textFiles(join(PARSER_FIXTURES, id)).map(read);
}

/** Every real input the repository holds: each parser's fixtures and each playbook's logs. */
export function allFixtures(): string[] {
  const parsers = readdirSync(PARSER_FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => parserFixtures(d.name));
  const playbooks = readdirSync(PLAYBOOKS).flatMap((id) => {
    const dir = join(PLAYBOOKS, id, 'fixtures');
    try {
      return textFiles(dir).map(read);
    } catch {
      return [];
    }
  });
  return [...parsers, ...playbooks];
}

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const oddChar = fc.oneof(
  fc.constantFrom(
    '\u0000',
    '\r',
    '\t',
    '\u001b[31m',
    '\u2028',
    '\ufeff',
    '\u00a0',
    '&gt;',
    '```',
    '{',
    '[',
    '"',
  ),
  loneSurrogate,
  fc.string({ unit: 'binary', maxLength: 4 }),
);
/** Numbers as tools print them, and as no tool would: huge, negative, exponent, NaN-ish. */
const oddNumber = fc.oneof(
  fc.constantFrom('0', '-1', '1e309', '99999999999999999999999', 'NaN', 'Infinity', '0.', '.5', '1,5'),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  fc.double().map(String),
);
/** A long run of one fragment: a line far beyond the 16 KiB cut. */
const hugeLine = fc
  .tuple(
    fc.constantFrom(' ', '0', 'a', ':', '[', '(', '-', 'GC(1) Pause Young ', '1.5 GB of ', '\u0000'),
    fc.integer({ min: 17_000, max: 120_000 }),
  )
  .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)));

type Mutation = (text: string) => string;

/** One edit at a position drawn by fast-check. */
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.nat(), fc.nat({ max: 400 })).map(
    ([at, len]): Mutation =>
      (t) => {
        const i = at % (t.length + 1);
        return t.slice(0, i) + t.slice(i + len);
      },
  ),
  fc.tuple(fc.nat(), oddChar).map(
    ([at, s]): Mutation =>
      (t) =>
        insert(t, at, s),
  ),
  fc.tuple(fc.nat(), oddNumber).map(
    ([at, s]): Mutation =>
      (t) =>
        replaceNumber(t, at, s),
  ),
  fc.tuple(fc.nat(), hugeLine).map(
    ([at, s]): Mutation =>
      (t) =>
        insert(t, at, `\n${s}\n`),
  ),
  fc.tuple(fc.nat(), fc.nat({ max: 2000 }), fc.integer({ min: 2, max: 50 })).map(
    ([at, len, times]): Mutation =>
      (t) => {
        const i = at % (t.length + 1);
        return t.slice(0, i) + t.slice(i, i + len).repeat(times) + t.slice(i);
      },
  ),
  fc.nat().map(
    (at): Mutation =>
      (t) =>
        t.slice(0, at % (t.length + 1)),
  ),
  fc.nat().map(
    (seed): Mutation =>
      (t) =>
        shuffleLines(t, seed),
  ),
);

function insert(text: string, at: number, piece: string): string {
  const i = at % (text.length + 1);
  return text.slice(0, i) + piece + text.slice(i);
}

function replaceNumber(text: string, at: number, value: string): string {
  const numbers = [...text.matchAll(/\d+(?:\.\d+)?/g)];
  const hit = numbers[at % Math.max(1, numbers.length)];
  if (!hit) return text;
  return text.slice(0, hit.index) + value + text.slice(hit.index + hit[0].length);
}

function shuffleLines(text: string, seed: number): string {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i > 0; i--) {
    const j = (seed + i * 7919) % (i + 1);
    [lines[i], lines[j]] = [lines[j] as string, lines[i] as string];
  }
  return lines.join('\n');
}

/** A real text with one to eight mutations applied. */
export function mutated(sources: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...sources), fc.array(mutation, { minLength: 1, maxLength: 8 }))
    .map(([text, edits]) => edits.reduce((t, edit) => edit(t), text));
}

/** Nesting far deeper than any pod, REST answer or event: arrays, objects, YAML flows, indentation. */
export const deeplyNested: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 1000, max: 100_000 }), fc.integer({ min: 1, max: 40 }))
  .chain(([depth, lines]) =>
    fc.constantFrom(
      `${'['.repeat(depth)}${']'.repeat(depth)}`,
      `{"taskmanagers":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`,
      `{"kind":"Pod","spec":{"containers":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
      `{"Event":"SparkListenerTaskEnd","Task Info":${'['.repeat(depth)}`,
      `apiVersion: v1\nkind: Pod\nmetadata: ${'['.repeat(depth)}`,
      `apiVersion: v1\nkind: Pod\n${Array.from({ length: lines }, () => '{'.repeat(Math.min(depth, 16_000))).join('\n')}`,
      `apiVersion: v1\nkind: Pod\n${Array.from({ length: Math.min(depth, 3000) }, (_, i) => `${' '.repeat(i)}a:`).join('\n')}`,
    ),
  );

/** A pod YAML with thousands of keys, or of list items: wide rather than deep. */
export const wideYaml: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 1000, max: 20_000 }), fc.boolean())
  .map(([n, keys]) => {
    const items = Array.from({ length: n }, (_, i) => (keys ? `    k${i}: "v${i}"` : `  - "v${i}"`));
    return `apiVersion: v1\nkind: Pod\nmetadata:\n  ${keys ? 'annotations' : 'finalizers'}:\n${items.join('\n')}`;
  });

/** Random text: any code points, lone surrogates and NULs, or lines made of odd pieces. */
export const randomText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 3000 }),
  fc
    .array(fc.oneof(oddChar, oddNumber, fc.constantFrom('\n', ' ', ':', '=', 'KB', 'MB', 'Total: ')), {
      maxLength: 400,
    })
    .map((parts) => parts.join('')),
);

/** Bytes that are not valid UTF-8 (or are binary), inserted into a real text's bytes. */
export function invalidUtf8(sources: readonly string[]): fc.Arbitrary<Uint8Array> {
  const bad = fc.constantFrom(
    [0xff],
    [0xc0, 0x80],
    [0xe2, 0x82],
    [0xed, 0xa0, 0x80],
    [0xf4, 0x90, 0x80, 0x80],
    [0x00, 0x00, 0x00],
    [0x1f, 0x8b, 0x08, 0x00],
  );
  return fc
    .tuple(mutated(sources), fc.array(fc.tuple(fc.nat(), bad), { minLength: 1, maxLength: 6 }))
    .map(([text, edits]) => {
      let bytes = Buffer.from(text, 'utf8');
      for (const [at, piece] of edits) {
        const i = at % (bytes.length + 1);
        bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from(piece), bytes.subarray(i)]);
      }
      return bytes;
    });
}
