import { describe, expect, it } from 'vitest';
import { diagnose, failureNote } from '../../src/diagnosis/index.ts';
import type { BlockOptions } from '../../src/engine/blocks.ts';
import { EXTRACTORS } from '../../src/engine/extractors/registry.ts';
import { collectRange, readFrom } from '../../src/engine/ranges.ts';
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

describe('diagnose with block threads and a file', () => {
  const ordinary = 'INFO TaskSetManager: Finished task 3.0 in stage 7.0 (TID 42) in 1234 ms on host-17\n';
  const text = `${ordinary.repeat(20_000)}java.lang.OutOfMemoryError: Java heap space\n`;
  const bytes = Buffer.from(text);
  async function* chunks(from = 0): AsyncGenerator<Uint8Array> {
    for (let at = from; at < bytes.length; at += 65_536) yield bytes.subarray(at, at + 65_536);
  }
  const seekable = { locator: 'big.log', size: bytes.length, read: (from: number) => chunks(from) };

  /** Threads that read ranges in-line here, counting them; blocks never. */
  function threads() {
    let ranges = 0;
    const blocks: BlockOptions = {
      offload: async () => {
        throw new Error('no block expected');
      },
      offloadRange: async (job) => {
        ranges++;
        return collectRange(job, [bytes.subarray(readFrom(job))]);
      },
      ready: () => true,
      readHereFirst: 0,
      rangeBytes: 100_000,
    };
    return { blocks, ranges: () => ranges };
  }

  it('has the threads read ranges of a file, with the result of reading it in order', async () => {
    const { blocks, ranges } = threads();
    const input = { source: 'big.log', chunks: chunks(), seekable };
    const split = await diagnose({ input, workspace: 'cli' }, { playbooks, blocks });
    expect(ranges()).toBeGreaterThan(3);
    const inOrder = await diagnose({ input: { source: 'big.log', text }, workspace: 'cli' }, { playbooks });
    expect(JSON.stringify(split.report)).toBe(JSON.stringify(inOrder.report));
  });

  it('reads a file in order when its chunks are counted as they are read (onRead): ranges would pass uncounted', async () => {
    const { blocks, ranges } = threads();
    let counted = 0;
    const onRead = (n: number) => {
      counted += n;
    };
    const input = { source: 'big.log', chunks: chunks(), seekable, onRead };
    await diagnose({ input, workspace: 'cli' }, { playbooks, blocks });
    expect(ranges()).toBe(0);
    expect(counted).toBe(bytes.length);
  });
});
