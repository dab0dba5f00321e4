// @ts-nocheck
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate, SIGNATURES } from '../../bench/generate.ts';

const dir = mkdtempSync(join(tmpdir(), 'memdoctor-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench log generator', () => {
  const size = 512 * 1024;

  it('writes the same bytes for the same seed, and other bytes for another seed', async () => {
    await generate(join(dir, 'a.log'), size, 42);
    await generate(join(dir, 'b.log'), size, 42);
    await generate(join(dir, 'c.log'), size, 43);
    const a = readFileSync(join(dir, 'a.log'));
    expect(a.equals(readFileSync(join(dir, 'b.log')))).toBe(true);
    expect(a.equals(readFileSync(join(dir, 'c.log')))).toBe(false);
  });

  it('reports its size and line count, and buries each signature exactly once where it says', async () => {
    const path = join(dir, 'm.log');
    const manifest = await generate(path, size, 7);
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n');
    expect(manifest.bytes).toBe(Buffer.byteLength(text));
    expect(manifest.bytes).toBeGreaterThanOrEqual(size);
    expect(manifest.lines).toBe(lines.length - 1);
    for (const signature of SIGNATURES) {
      const at = manifest.buried[signature.id] ?? 0;
      expect(lines[at - 1]).toContain(signature.literal);
      expect(lines.filter((line) => line.includes(signature.literal))).toHaveLength(1);
    }
  });
});
