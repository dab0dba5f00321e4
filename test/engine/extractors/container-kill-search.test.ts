import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containerKill } from '../../../src/engine/extractors/container-kill.ts';
import type { FactValue, Finding } from '../../../src/engine/facts.ts';
import { parseSize } from '../../../src/engine/units.ts';

// The extractor's patterns, run as it ran them before it searched a line only where they can match:
// the oracle its faster search must agree with on every line.
const [YARN_KILL, PHYSICAL, VIRTUAL, K8S_KILL] = containerKill.patterns as RegExp[] as [
  RegExp,
  RegExp,
  RegExp,
  RegExp,
];
const USAGE = { physical: PHYSICAL, virtual: VIRTUAL };

function figures(line: string, resource: 'physical' | 'virtual') {
  const match = USAGE[resource].exec(line);
  return { used: parseSize(match?.[1] ?? ''), limit: parseSize(match?.[2] ?? '') };
}

function usage(line: string, resource: 'physical' | 'virtual'): Record<string, FactValue> {
  const values: Record<string, FactValue> = { resource, manager: 'yarn' };
  const { used, limit } = figures(line, resource);
  if (used !== undefined) values.usedBytes = used;
  if (limit !== undefined) values.limitBytes = limit;
  if (resource === 'virtual') {
    const physical = figures(line, 'physical');
    if (physical.used !== undefined) values.physicalUsedBytes = physical.used;
    if (physical.limit !== undefined) values.physicalLimitBytes = physical.limit;
  }
  return values;
}

function oracle(line: string): Finding[] {
  const kill = YARN_KILL.exec(line);
  if (kill) {
    const named = kill[1];
    const resource = named
      ? /virtual/i.test(named)
        ? 'virtual'
        : 'physical'
      : VIRTUAL.test(line) && !PHYSICAL.test(line)
        ? 'virtual'
        : 'physical';
    return [{ kind: 'container.killed-memory', values: usage(line, resource) }];
  }
  for (const resource of ['physical', 'virtual'] as const) {
    const { used, limit } = figures(line, resource);
    if (used !== undefined && limit !== undefined && used >= limit)
      return [{ kind: 'container.killed-memory', values: usage(line, resource) }];
  }
  if (K8S_KILL.test(line))
    return [{ kind: 'container.killed-memory', values: { resource: 'physical', manager: 'kubernetes' } }];
  return [];
}

const PARTS = [
  '4.5 GB',
  '11 GB',
  '1.0 gb',
  '123456789012345.123456 TiB',
  '1234567890123456 GB',
  '512B',
  '2654208B',
  ' of ',
  ' ',
  'physical memory used',
  'PHYSICAL Memory Used',
  'virtual memory used',
  '; ',
  'Container killed by YARN for exceeding memory limits. ',
  "is running 2654208B beyond the 'PHYSICAL' memory limit. ",
  'running beyond virtual memory limits. ',
  'OOMKilled',
  'node was low on resource: memory',
  'İ',
  '\u212a',
  'x'.repeat(60),
  '.',
  '7',
];

/** A size as LOG_SIZE reads it, often its longest (26 characters), or just past what it allows. */
const size = fc.oneof(
  fc.constant('999999999999999.555555 TiB'),
  fc
    .tuple(
      fc.integer({ min: 1, max: 16 }),
      fc.integer({ min: 0, max: 7 }),
      fc.constantFrom('', ' '),
      fc.constantFrom('GB', 'TiB', 'kB', 'B', 'mb', 'X'),
    )
    .map(([digits, decimals, space, unit]) => {
      const number = '9'.repeat(digits) + (decimals > 0 ? `.${'5'.repeat(decimals)}` : '');
      return `${number}${space}${unit}`;
    }),
);

/** "USED of LIMIT physical memory used", with other text and lower-casing hazards around it. */
const figuresLine = fc
  .tuple(
    fc.array(fc.constantFrom('İ', 'x', ' ', '7', '.', '\u212a'), { maxLength: 6 }),
    size,
    size,
    fc.constantFrom('physical memory used', 'virtual memory used', 'PHYSICAL Memory Used'),
    fc.array(fc.constantFrom('İ', '; ', ' of ', 'virtual memory used', '1 GB'), { maxLength: 4 }),
  )
  .map(
    ([before, used, limit, what, after]) => `${before.join('')}${used} of ${limit} ${what}${after.join('')}`,
  );

describe('container-kill, searched where its figures can be', () => {
  it('reads the figures of the longest sizes, with text before them that lower-casing lengthens', () =>
    fc.assert(
      fc.property(figuresLine, (line) => {
        expect(containerKill.extract(line, () => true)).toEqual(oracle(line));
      }),
      { numRuns: 2000 },
    ));

  it('gives on every line what its patterns give when run over the whole line', () =>
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...PARTS), fc.string()), { maxLength: 14 }), (parts) => {
        const line = parts.join('');
        expect(containerKill.extract(line, () => true)).toEqual(oracle(line));
      }),
      { numRuns: 2000 },
    ));
});
