import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../cli/spawn-helpers.ts';

const run = promisify(execFile);

/**
 * A process that drops 12 MiB of young buffers (as gunzip's output dies), sweeps or not, and prints
 * the bytes of buffers V8 still holds right after (within the same task, so no idle-time collection runs).
 */
const PROGRAM = `
const { sweepYoungGeneration } = await import('./src/engine/ingest/young-sweep.ts');
let dropped = [];
for (let i = 0; i < 48; i++) dropped.push(Buffer.allocUnsafe(256 * 1024));
dropped = null;
if (process.argv.includes('sweep')) sweepYoungGeneration();

console.log(process.memoryUsage().arrayBuffers, typeof globalThis.gc);
`;

async function heldAfter(...args: string[]): Promise<{ bytes: number; gcGlobal: string }> {
  const { stdout } = await run(
    process.execPath,
    // Buffers swept at once, not on a helper thread, so the count printed right after is settled.
    [
      '--no-concurrent-array-buffer-sweeping',
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      PROGRAM,
      ...args,
    ],
    {
      cwd: ROOT,
    },
  );
  const [bytes, gcGlobal] = stdout.trim().split(' ');
  return { bytes: Number(bytes), gcGlobal: gcGlobal ?? '' };
}

describe('sweepYoungGeneration', () => {
  it('frees dead young buffers that V8 would otherwise keep, and exposes no gc global', async () => {
    const kept = await heldAfter();
    const swept = await heldAfter('sweep');
    // Control: without a sweep the 12 MiB wait for a collection.
    expect(kept.bytes).toBeGreaterThan(12 * 1024 * 1024);
    expect(swept.bytes).toBeLessThan(4 * 1024 * 1024);
    expect(swept.gcGlobal).toBe('undefined');
  });
});
