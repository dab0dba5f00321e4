// @ts-nocheck
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLines } from '../../../src/engine/parsers/parse-stream.ts';

const fixture = (parser: string, file: string) =>
  readFileSync(join(import.meta.dirname, 'fixtures', parser, file), 'utf8')
    .trimEnd()
    .split('\n');

async function* repeat(lines: readonly string[], times: number): AsyncGenerator<readonly string[]> {
  const batch = Array.from({ length: 1000 }, () => lines).flat();
  for (let i = 0; i < times / 1000; i++) yield batch;
}

describe('parsers on long inputs', () => {
  // Regression: the GC log parser once kept every event and spread them into Math.max, which overflowed.
  it('streams 100k GC pauses without keeping them', async () => {
    const out = await parseLines(
      'gc-log',
      repeat(fixture('gc-log', 'gcviewer-161-parallel-full-gcs.txt'), 25_000),
    );
    expect(out.values).toMatchObject({ gcEvents: 100_000, fullGcCount: 100_000 });
  });

  it('keeps at most 100k of 200k memory samples, bounded memory', async () => {
    async function* samples(): AsyncGenerator<readonly string[]> {
      for (let b = 0; b < 200; b++)
        yield Array.from({ length: 1000 }, (_, i) => `${1 + (b * 1000 + i) / 1e5} GB`);
    }
    const out = await parseLines('memory-samples', samples());
    expect(out.values.samples).toBe(100_000);
    expect(out.verdict).toMatch(/^leak likely/);
  });

  it('detects the format with auto when it is there from the start', async () => {
    const out = await parseLines('auto', repeat(fixture('pmap', 'tencent-arena-pairs.txt'), 1000));
    expect(out.format).toBe('pmap');
  });
});
