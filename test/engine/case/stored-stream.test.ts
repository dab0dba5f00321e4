import { createReadStream, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCaseInput, readStoredInput, storedInput } from '../../../src/engine/case/index.ts';
import { InputTooLargeError } from '../../../src/errors.ts';

/*
 * A case reads an input straight into what it stores, batch by batch (issue 35, item 8): the result
 * must be what storedInput gives over all of the input's lines at once, whatever the chunk sizes.
 * Real inputs: test/fixtures/case/SOURCES.md (the heap dump is read by the heap analysis, not here).
 */

const CASES = join(import.meta.dirname, '..', '..', 'fixtures', 'case');
const TEXT_INPUTS = readdirSync(CASES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) =>
    readdirSync(join(CASES, dir.name))
      .filter((file) => !file.endsWith('.hprof.gz'))
      .map((file) => join(dir.name, file)),
  );

const chunksOf = (file: string, highWaterMark?: number) =>
  createReadStream(join(CASES, file), highWaterMark ? { highWaterMark } : {});

describe('an input read batch by batch into what a case stores', () => {
  it('covers every text input of the case fixtures', () => {
    expect(TEXT_INPUTS.length).toBeGreaterThanOrEqual(20);
  });

  it.each(TEXT_INPUTS)('%s: the same keys, facts and times as from all its lines at once', async (file) => {
    const whole = storedInput(await readCaseInput({ source: file, chunks: chunksOf(file) }, Infinity));
    for (const size of [7, 1024, 64 * 1024]) {
      const streamed = await readStoredInput({ source: file, chunks: chunksOf(file, size) }, Infinity);
      expect(JSON.stringify(streamed)).toBe(JSON.stringify(whole));
    }
  });

  it('refuses an input past the bytes it may read, as the whole read does', async () => {
    const file = join('hudi-9339', 'nodemanager.log');
    await expect(readStoredInput({ source: file, chunks: chunksOf(file) }, 100)).rejects.toThrow(
      InputTooLargeError,
    );
  });
});
