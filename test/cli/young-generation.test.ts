import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from './spawn-helpers.ts';

const run = promisify(execFile);

/**
 * A process that keeps many young objects alive (so V8 grows its new space); prints that space's
 * size before and after them.
 */
const PROGRAM = `
import { getHeapSpaceStatistics } from 'node:v8';
const { keepYoungGenerationSmall } = await import('./src/cli/young-generation.ts');
const newSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
if (process.argv.includes('small')) keepYoungGenerationSmall();
const before = newSpace();
const kept = [];
for (let i = 0; i < 2_000_000; i++) kept.push({ i });
console.log(before, newSpace(), kept.length);
`;

async function newSpaceBytes(...args: string[]): Promise<{ before: number; after: number }> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', PROGRAM, ...args],
    {
      cwd: ROOT,
    },
  );
  const [before, after] = stdout.split(' ').map(Number);
  return { before: before ?? Number.NaN, after: after ?? Number.NaN };
}

describe('keepYoungGenerationSmall', () => {
  it('holds the new space where it is while survivors would grow it', async () => {
    const grown = await newSpaceBytes();
    const held = await newSpaceBytes('small');
    // Control: without it V8 grows the new space (to 16 MiB in Node 20 and 22).
    expect(grown.after).toBeGreaterThan(grown.before);
    expect(held.after).toBe(held.before);
    expect(held.after).toBeLessThan(grown.after);
  });
});
