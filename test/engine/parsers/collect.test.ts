import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FactCollector } from '../../../src/engine/collector.ts';
import { ParsedFacts } from '../../../src/engine/parsers/collect.ts';

const fixture = (parser: string, file: string) =>
  readFileSync(join(import.meta.dirname, 'fixtures', parser, file), 'utf8');

/** The facts the diagnosis collects from a text, parsed dumps included. */
function bookOf(text: string) {
  const collector = new FactCollector();
  collector.push(text.split('\n'));
  collector.finish();
  return collector.book;
}

describe('parsed facts in the diagnosis', () => {
  it.each([
    ['nmt', 'netty-quic-413-summary-mb.txt', 'nmt.native-large'],
    ['gc-log', 'gcviewer-161-parallel-full-gcs.txt', 'gc.heap-full-after-gc'],
    ['pmap', 'jdk17-zlib-in-32-threads-x.txt', 'native.glibc-arenas'],
    ['k8s-pod', 'ibm-cloud-metrics-server-oomkilled.txt', 'container.killed-memory'],
  ])('a %s dump adds its facts to the FactBook (%s)', (parser, file, kind) => {
    const book = bookOf(fixture(parser, file));
    expect(book.has(`parsed.${parser}`)).toBe(true);
    expect(book.has(kind)).toBe(true);
    const [summary] = book.find(`parsed.${parser}`);
    expect(summary?.line).toBeGreaterThan(0);
  });

  it('cites the input line numbers even when lines arrive in several batches', () => {
    const lines = fixture('nmt', 'netty-quic-413-summary-mb.txt').split('\n');
    const collector = new ParsedFacts();
    for (let i = 0; i < lines.length; i += 3) collector.push(lines.slice(i, i + 3));
    const internal = collector.facts().find((f) => f.kind === 'nmt.native-large');
    expect(internal?.line).toBe(lines.findIndex((l) => l.includes('Internal (reserved')) + 1);
  });

  it('adds nothing, and does not fail, for a plain log or a dump it cannot use', () => {
    const plain = bookOf('INFO starting\nWARN something odd\nINFO done');
    expect(plain.kinds().filter((k) => k.startsWith('parsed.'))).toEqual([]);
    const collector = new ParsedFacts();
    collector.push(fixture('nmt', 'truncated-header-only.txt').split('\n'));
    expect(collector.facts()).toEqual([]);
    expect(collector.failure).toMatch(/could not parse: expected/);
  });

  it('detects a format whose head arrives after more than 50 lines only from the first 50', () => {
    const collector = new ParsedFacts();
    const filler = Array.from({ length: 60 }, (_, i) => `log line ${i}`);
    collector.push([...filler, ...fixture('nmt', 'netty-quic-413-summary-mb.txt').split('\n')]);
    expect(collector.finish()).toBeUndefined();
  });
});
