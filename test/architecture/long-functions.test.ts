import { describe, expect, it } from 'vitest';
import { longFunctions, longFunctionsIn, MAX_FUNCTION_LINES } from '../../scripts/long-functions.ts';

/**
 * Files whose long functions are being split in other branches at the same time; each comes off
 * this list when its branch lands.
 */

/** A function whose declaration spans exactly `lines` lines, preceded by a doc comment that does not count. */
function functionOf(name: string, lines: number): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`);
  return [`/** ${name}, documented. */`, `function ${name}() {`, ...body, '}'].join('\n');
}

describe('scripts/long-functions.ts', () => {
  it('lists a function one line over the limit, with its line, and not one at the limit', () => {
    const text = [
      functionOf('atLimit', MAX_FUNCTION_LINES),
      functionOf('overLimit', MAX_FUNCTION_LINES + 1),
    ].join('\n');
    expect(longFunctionsIn('a.ts', text)).toEqual([
      { file: 'a.ts', line: MAX_FUNCTION_LINES + 3, name: 'overLimit', lines: MAX_FUNCTION_LINES + 1 },
    ]);
  });

  it('names arrow functions, methods and nested functions by what they are assigned to', () => {
    const arrow = `const handler = () => {\n${'  call();\n'.repeat(5)}};`;
    const method = `class C {\n  run() {\n${'    call();\n'.repeat(5)}  }\n}`;
    const found = longFunctionsIn('b.ts', `${arrow}\n${method}\n${functionOf('outer', 7)}`, 5);
    expect(found.map((f) => [f.name, f.lines])).toEqual([
      ['handler', 7],
      ['run', 7],
      ['outer', 7],
    ]);
  });

  it('finds none in src', () => {
    expect(longFunctions(['src'])).toEqual([]);
  });
});
