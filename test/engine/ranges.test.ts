import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RangeFacts } from '../../src/engine/block-read.ts';
import { type BlockJob, collectBlock } from '../../src/engine/blocks.ts';
import { diagnoseStream } from '../../src/engine/index.ts';
import {
  collectRange,
  ownBytes,
  ownBytesOf,
  RangeCutter,
  type RangeJob,
  readFrom,
  type SeekableInput,
} from '../../src/engine/ranges.ts';
import { log, ORDINARY } from './ingest/generated-log.ts';
import { outcome, playbooks, repeated } from './split-outcome.ts';

const HEAP_OOM = 'java.lang.OutOfMemoryError: Java heap space';
const NEWLINE = 0x0a;

/** Chunks of `size` from `from` on, each a copy (as a file's reads are). */
function* chunksFrom(bytes: Uint8Array, from: number, size: number): Generator<Uint8Array> {
  for (let at = from; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

/** What a range owns of `bytes`, read from readFrom(range) in chunks of `size`. */
function owned(
  bytes: Uint8Array,
  range: Pick<RangeJob, 'start' | 'end' | 'atLineStart'>,
  size: number,
): Buffer {
  const cutter = new RangeCutter(range);
  const parts: Uint8Array[] = [];
  for (const chunk of chunksFrom(bytes, readFrom(range), size)) {
    if (cutter.done) break;
    const part = cutter.take(chunk);
    if (part) parts.push(part);
  }
  return Buffer.concat(parts);
}

/** What each range owns, cut from `from` on by RangeReader's bounds: `rangeBytes` each, the last to the end. */
function rangesOf(bytes: Uint8Array, from: number, rangeBytes: number, chunk: number): Buffer[] {
  const parts: Buffer[] = [];
  for (let start = from; ; start += rangeBytes) {
    const end = start + rangeBytes < bytes.length ? start + rangeBytes : undefined;
    parts.push(
      owned(bytes, { start, ...(end === undefined ? {} : { end }), atLineStart: start === from }, chunk),
    );
    if (end === undefined) return parts;
  }
}

/** Lines of `a` and newlines, some long, some empty; a line start to read ranges from. */
const text = fc
  .array(fc.oneof(fc.constant('\n'), fc.string({ minLength: 0, maxLength: 3, unit: fc.constant('a') })), {
    maxLength: 80,
  })
  .map((parts) => Buffer.from(parts.join('')));

describe('cutting a seekable input into ranges', () => {
  it('gives every byte after the first range start to exactly one range, each a run of whole lines', () => {
    fc.assert(
      fc.property(
        text,
        fc.nat(),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 7 }),
        (bytes, pick, rangeBytes, chunk) => {
          const starts = [0, ...[...bytes].flatMap((byte, i) => (byte === NEWLINE ? [i + 1] : []))];
          const from = starts[pick % starts.length] as number;
          const parts = rangesOf(bytes, from, rangeBytes, chunk);
          // A range begins at a line's start and, unless it reaches the input's end, ends with a newline.
          let at = from;
          for (const part of parts.filter((p) => p.length > 0)) {
            expect(starts).toContain(at);
            at += part.length;
            if (at < bytes.length) expect(part.at(-1)).toBe(NEWLINE);
          }
          expect(Buffer.concat(parts).equals(bytes.subarray(from))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('asks for no chunk past the one that completes the range (each is a read of the file)', async () => {
    const bytes = Buffer.from('aaaa\nbbbb\ncccc\ndddd\n');
    let pulled = 0;
    function* counted(): Generator<Uint8Array> {
      for (const chunk of chunksFrom(bytes, 0, 5)) {
        pulled++;
        yield chunk;
      }
    }
    const range = { locator: 'input', start: 0, end: 10, atLineStart: true };
    expect(Buffer.concat([...ownBytes(range, counted())]).toString()).toBe('aaaa\nbbbb\n');
    expect(pulled).toBe(2);
    pulled = 0;
    async function* later(): AsyncGenerator<Uint8Array> {
      yield* counted();
    }
    const parts: Uint8Array[] = [];
    for await (const part of ownBytesOf(range, later())) parts.push(part);
    expect(Buffer.concat(parts).toString()).toBe('aaaa\nbbbb\n');
    expect(pulled).toBe(2);
  });

  it('gives a range inside one long line nothing, and the line to the range it started in', () => {
    const bytes = Buffer.from(`ab\n${'x'.repeat(40)}\ncd\n`);
    expect(owned(bytes, { start: 10, end: 20, atLineStart: false }, 4).length).toBe(0);
    expect(owned(bytes, { start: 0, end: 10, atLineStart: true }, 4).toString()).toBe(
      `ab\n${'x'.repeat(40)}\n`,
    );
    expect(owned(bytes, { start: 20, end: 46, atLineStart: false }, 4).toString()).toBe('cd\n');
  });
});

/** The input as a file would be, for the reader here and for the "threads" alike. */
function seekable(bytes: Uint8Array, chunk: number, reads: number[] = []): SeekableInput {
  return {
    locator: 'input',
    size: bytes.length,
    async *read(from) {
      reads.push(from);
      yield* chunksFrom(bytes, from, chunk);
    },
  };
}

/**
 * Reads ranges on this thread, as a block thread would: the job and the facts pass through
 * structuredClone, each answer after its own delay; `fails` says which (by order) reject.
 */
function rangesInThread(
  bytes: Uint8Array,
  chunk: number,
  delays: readonly number[] = [0],
  fails = new Set<number>(),
) {
  const jobs: RangeJob[] = [];
  const offloadRange = async (job: RangeJob): Promise<RangeFacts> => {
    jobs.push(job);
    const turn = jobs.length;
    const copy = structuredClone(job);
    const facts = structuredClone(collectRange(copy, chunksFrom(bytes, readFrom(copy), chunk)));
    // 0: the answer comes at once (a few microtasks on), else after that many ms.
    const delay = delays[turn % delays.length] ?? 0;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (fails.has(turn)) throw new Error(`thread lost on range ${turn}`);
    return facts;
  };
  return { offloadRange, jobs };
}

/** Blocks read as a thread would (the gzip input's rest goes by block). */
const inOrderBlocks = async (job: BlockJob) => structuredClone(collectBlock(structuredClone(job)));

/** Blocks never read: with a seekable input, the rest goes by range. */
const noBlocks = async () => {
  throw new Error('a block was handed out');
};

/** Options that read `bytes` by ranges of at most `rangeBytes`, read in-line (rangesInThread). */
function byRanges(bytes: Uint8Array, chunk: number, rangeBytes: number) {
  const { offloadRange, jobs } = rangesInThread(bytes, chunk);
  const options = {
    offload: noBlocks,
    offloadRange,
    seekable: seekable(bytes, chunk),
    rangeBytes,
    readHereFirst: 0,
  };
  return { options, jobs };
}

describe('reading the rest of a seekable input by ranges', () => {
  it('gives generated logs the result of reading every line in order, whatever the range size, timing and failures', async () => {
    let handed = 0;
    await fc.assert(
      fc.asyncProperty(
        log,
        fc.integer({ min: 64, max: 6000 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 2 }),
        async ({ bytes, chunk }, rangeBytes, inFlight, delays, readHereFirst, failing) => {
          const { offloadRange, jobs } = rangesInThread(bytes, chunk, delays, new Set(failing));
          const input = seekable(bytes, chunk);
          const options = {
            offload: noBlocks,
            offloadRange,
            seekable: input,
            rangeBytes,
            inFlight,
            readHereFirst,
          };
          expect(await outcome(bytes, chunk, options)).toBe(await outcome(bytes, chunk));
          handed += jobs.length;
        },
      ),
      { numRuns: 150 },
    );
    // The count depends on the random draws (an early readHereFirst or a large range leaves little
    // to hand out): 90 to 2,673 over twenty runs on 2026-12-07, and a bound of 100 failed two full
    // suites. 25 still says the property was tried on inputs split many times; 0 is what it guards.
    expect(handed).toBeGreaterThan(25);
  }, 120_000);

  it('reads on in order here up to the ranges handed out from the end, and keeps line numbers across them', async () => {
    const body = `${repeated(ORDINARY[0] as string, 3000)}\n${HEAP_OOM}\n${repeated(ORDINARY[1] as string, 3000)}\n${HEAP_OOM}`;
    const bytes = Buffer.from(body);
    const { offloadRange, jobs } = rangesInThread(bytes, 4096);
    let readInOrder = 0;
    async function* counted(): AsyncGenerator<Uint8Array> {
      for (const chunk of chunksFrom(bytes, 0, 4096)) {
        readInOrder += chunk.length;
        yield chunk;
      }
    }
    const input = seekable(bytes, 4096);
    const options = {
      offload: noBlocks,
      offloadRange,
      seekable: input,
      rangeBytes: 50_000,
      readHereFirst: 8192,
    };
    const result = await diagnoseStream('input', counted(), playbooks, { blocks: options });
    expect(jobs.length).toBeGreaterThan(5);
    // From the end backwards: the first to the input's end, each next one ending where the one before starts.
    expect(jobs[0]?.end).toBeUndefined();
    for (const [i, job] of jobs.entries()) {
      expect(job.atLineStart).toBe(false);
      if (i > 0) expect(job.end).toBe(jobs[i - 1]?.start);
    }
    // Read here up to the nearest range (and the chunk it falls in), not beyond.
    const nearest = jobs.at(-1)?.start as number;
    expect(readInOrder).toBeGreaterThanOrEqual(nearest - 1);
    expect(readInOrder).toBeLessThan(nearest + 4096);
    // The ranges shrink as this thread draws near.
    expect((jobs.at(-1)?.end as number) - nearest).toBeLessThan(50_000);
    expect(result.report.input).toEqual({ bytes: bytes.length, lines: 6002 });
    const cited = result.report.diagnoses[0]?.evidence.map((e) => e.line);
    expect(cited).toEqual(expect.arrayContaining([3001, 6002]));
  });

  it('hands out no more ranges once a thread failed one, and reads the failed one here', async () => {
    const bytes = Buffer.from(`${repeated(ORDINARY[0] as string, 4000)}\n${HEAP_OOM}\n`);
    const { offloadRange, jobs } = rangesInThread(bytes, 4096, [0], new Set([2]));
    const reads: number[] = [];
    const input = seekable(bytes, 4096, reads);
    const options = {
      offload: noBlocks,
      offloadRange,
      seekable: input,
      rangeBytes: 40_000,
      readHereFirst: 0,
      inFlight: 1,
    };
    expect(await outcome(bytes, 4096, options)).toBe(await outcome(bytes, 4096));
    // The first range came back, the second failed: it was read here from the input, and no third was handed out.
    expect(jobs).toHaveLength(2);
    expect(reads).toEqual([(jobs[1] as RangeJob).start - 1]);
  });

  it('reads a range here again when it saw more settings than a book keeps', async () => {
    const keys = Array.from({ length: 1100 }, (_, i) => `--conf spark.custom.key${i}=${i}`).join('\n');
    const ordinary = repeated(ORDINARY[0] as string, 1000);
    const text = `--conf spark.executor.memory=4g\n${ordinary}\n${ordinary}\n${keys}\n--conf spark.executor.memory=8g\n${HEAP_OOM}\n`;
    const bytes = Buffer.from(text);
    const { options, jobs } = byRanges(bytes, 4096, 60_000);
    const ranges = await outcome(bytes, 4096, options);
    expect(jobs.length).toBeGreaterThan(1);
    expect(ranges).toContain('"config.spark.executor.memory":"8g"');
    expect(ranges).toBe(await outcome(bytes, 4096));
  });

  it('gives a line that runs across where this thread and the ranges meet to one of them, however long', async () => {
    const long = 'x'.repeat(30_000);
    const bytes = Buffer.from(`${repeated(`${long}\n${ORDINARY[0]}`, 60)}\n${HEAP_OOM}\n`);
    const { options, jobs } = byRanges(bytes, 20_000, 200_000);
    const limits = { maxLineChars: 100 };
    const split = await outcome(bytes, 20_000, options, limits);
    expect(jobs.length).toBeGreaterThan(3);
    // Some ranges start inside a long line.
    expect(jobs.some((job) => bytes[job.start - 1] === 0x78 && bytes[job.start] === 0x78)).toBe(true);
    expect(split).toBe(await outcome(bytes, 20_000, undefined, limits));
    expect(JSON.parse(split).report.input).toEqual({ bytes: bytes.length, lines: 121 });
  });

  it('hands out no range of a gzip input: its offsets are not those of the text', async () => {
    const text = Buffer.from(`${repeated(ORDINARY[0] as string, 4000)}\n${HEAP_OOM}\n`);
    const gz = gzipSync(text);
    const { options, jobs } = byRanges(gz, 4096, 1000);
    const read = await outcome(gz, 1024, { ...options, offload: inOrderBlocks });
    expect(jobs).toHaveLength(0);
    expect(read).toBe(await outcome(text, 1024));
    expect(JSON.parse(read).report.diagnoses.length).toBeGreaterThan(0);
  });

  it('refuses an input over the byte limit as the plain reader does, without handing out a range', async () => {
    const bytes = Buffer.from(`${repeated(ORDINARY[0] as string, 4000)}\n${HEAP_OOM}\n`);
    const { options, jobs } = byRanges(bytes, 4096, 40_000);
    const refused = await outcome(bytes, 4096, options, { maxBytes: 100_000 });
    expect(refused).toMatch(/^refused: /);
    expect(refused).toBe(await outcome(bytes, 4096, undefined, { maxBytes: 100_000 }));
    expect(jobs).toHaveLength(0);
  });
});
