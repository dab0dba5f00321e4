import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../../src/engine/extractors/', import.meta.url));
const TESTS = fileURLToPath(new URL('./', import.meta.url));

/** Every fact kind an extractor names literally (`kind: 'oom.java-heap'`). */
function kindsInSource(): string[] {
  const kinds = new Set<string>();
  for (const file of readdirSync(SRC).filter((f) => f.endsWith('.ts'))) {
    for (const match of readFileSync(SRC + file, 'utf8').matchAll(/kind: '([a-z0-9.-]+)'/g))
      kinds.add(match[1] ?? '');
  }
  return [...kinds].sort();
}

/** The string literals of a TypeScript text; comments do not count (the parser skips them). */
function literalsIn(text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('test.ts', text, ts.ScriptTarget.Latest));
  return found;
}

function literalsInTests(): Set<string> {
  const files = readdirSync(TESTS).filter((f) => f.endsWith('.test.ts'));
  return new Set(files.flatMap((f) => literalsIn(readFileSync(TESTS + f, 'utf8'))));
}

const literals = literalsInTests();

// Like a playbook without fixtures, a fact kind no test produces fails the suite: add a real line for it.
describe('every fact kind an extractor reports has a test', () => {
  it('finds the kinds', () => {
    expect(kindsInSource().length).toBeGreaterThan(20);
  });

  it.each(kindsInSource())('%s', (kind) => {
    expect(literals.has(kind)).toBe(true);
  });

  it('does not count a kind named only in a comment', () => {
    expect(literalsIn("// 'oom.java-heap'\n/* 'oom.metaspace' */ const k = 'exit.137';")).toEqual([
      'exit.137',
    ]);
  });
});
