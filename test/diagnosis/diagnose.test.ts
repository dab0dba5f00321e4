import { describe, expect, it } from 'vitest';
import { diagnose, failureNote } from '../../src/diagnosis/index.ts';
import { EXTRACTORS } from '../../src/engine/extractors/registry.ts';
import { ErrorCode, MemdoctorError } from '../../src/errors.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { throwingExtractor } from '../engine/failing-extractor.ts';

const playbooks = loadPlaybooks();
const LOG = 'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n';

async function* chunks(text: string): AsyncGenerator<Uint8Array> {
  for (const part of text.match(/[\s\S]{1,7}/g) ?? []) yield Buffer.from(part);
}

describe('diagnose (the use case)', () => {
  it('gives the same report and facts for a paste and for the same bytes streamed', async () => {
    const pasted = await diagnose({ input: { source: 'x', text: LOG }, workspace: 'cli' }, { playbooks });
    const streamed = await diagnose(
      { input: { source: 'x', chunks: chunks(LOG) }, workspace: 'cli' },
      { playbooks },
    );
    expect(streamed).toEqual(pasted);
    expect(pasted.report.diagnoses[0]?.playbook).toBe('spark-heap-oom');
    expect(pasted.findings).toContainEqual({ kind: 'oom.java-heap' });
    expect(pasted.notes).toEqual([]);
  });

  it('passes the engine hint to the engine', async () => {
    const text = 'java.lang.OutOfMemoryError: Java heap space\n';
    const plain = await diagnose({ input: { source: 'x', text }, workspace: 'cli' }, { playbooks });
    const glue = await diagnose(
      { input: { source: 'x', text }, engine: 'glue', workspace: 'cli' },
      { playbooks },
    );
    expect(plain.report.diagnoses[0]?.playbook).not.toBe('glue-heap-oom');
    expect(glue.report.diagnoses[0]?.playbook).toBe('glue-heap-oom');
  });

  it('holds the input to its limits', async () => {
    const error = await diagnose(
      { input: { source: 'x', text: LOG }, limits: { maxBytes: 10 }, workspace: 'cli' },
      { playbooks },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MemdoctorError);
    expect((error as MemdoctorError).code).toBe(ErrorCode.InputTooLarge);
  });

  it('turns a throwing extractor into a note and diagnoses the rest', async () => {
    const extractors = [
      ...Object.values(EXTRACTORS),
      throwingExtractor('broken', 'outofmemoryerror', new Error('boom')),
    ];
    const text = `${LOG}java.lang.OutOfMemoryError: Java heap space\n`;
    const result = await diagnose(
      { input: { source: 'x', text }, workspace: 'cli' },
      { playbooks, extractors },
    );
    expect(result.report.diagnoses[0]?.playbook).toBe('spark-heap-oom');
    expect(result.notes).toEqual([
      'extractor broken failed on line 2 and 1 more line (boom); the rest of the input was diagnosed without it there',
    ]);
  });
});

describe('failureNote', () => {
  it.each([
    [{ stage: 'extractor', id: 'x', message: 'm', line: 4, count: 1 }, 'extractor x failed on line 4 (m)'],
    [{ stage: 'extractor', id: 'x', message: 'm', line: 4, count: 3 }, 'on line 4 and 2 more lines (m)'],
    [{ stage: 'parser', message: 'could not parse: expected a header', count: 1 }, 'could not be parsed'],
  ] as const)('%j says %s', (failure, words) => {
    expect(failureNote(failure)).toContain(words);
  });
});
