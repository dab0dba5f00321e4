import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { threadNotes } from '../../src/cli/commands/diagnose.ts';
import { openInput, seekableInput } from '../../src/cli/input.ts';
import { diagnoseStream, diagnoseText } from '../../src/engine/index.ts';
import type { SeekableInput } from '../../src/engine/ranges.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { BlockPool } from '../../src/setup/block-pool.ts';
import { FAIL_LINE } from './failing-block-worker.ts';
import { paced } from './paced.ts';

const playbooks = loadPlaybooks();
const failingWorker = {
  filename: new URL('./failing-block-worker.ts', import.meta.url).href,
  execArgv: ['--import', 'tsx'],
};
const ORDINARY =
  '24/11/30 10:00:01 INFO TaskSetManager: Finished task 3.0 in stage 7.0 (TID 42) in 1234 ms on host-17 (executor 5) (3/200)';
const HEAP_OOM = 'java.lang.OutOfMemoryError: Java heap space';
const KILLED =
  'Container killed by YARN for exceeding memory limits. 11.2 GB of 11 GB physical memory used. Consider boosting spark.executor.memoryOverhead.';

/**
 * About 8 MB (the CLI reads a file 1 MiB at a time): ordinary lines, the failing line in the middle,
 * and the only evidence of the YARN kill in the same block as it, so a block lost loses that diagnosis.
 */
function logFailingAt(line: string): string {
  const lines: string[] = [];
  for (let i = 0; i < 64_000; i++) {
    lines.push(ORDINARY);
    if (i === 2000) lines.push(HEAP_OOM);
    if (i === 40_000) lines.push(line, KILLED);
  }
  return `${lines.join('\n')}\n`;
}

const dir = mkdtempSync(join(tmpdir(), 'memdoctor-block-failure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the CLI reads an input through: its chunks and, for a file read by ranges, the file. */
interface Opened {
  chunks: AsyncIterable<Uint8Array>;
  seekable?: SeekableInput;
}

/** The CLI's own reads of a file (1 MiB reads into a ring of buffers), its blocks handed out by this thread. */
function fileChunks(bytes: Buffer): Opened {
  const path = join(dir, 'big.log');
  writeFileSync(path, bytes);
  return { chunks: openInput(path) };
}

/**
 * The same file, ranges of it read by the threads themselves from its end (as `memdoctor diagnose
 * FILE` does). Read here slowly (64 KiB every 10 ms), so that the ranges reach the failing line first.
 */
function fileRanges(bytes: Buffer): Opened {
  const path = join(dir, 'ranges.log');
  writeFileSync(path, bytes);
  return { chunks: paced(openInput(path), 10), seekable: seekableInput(path) as SeekableInput };
}

/** The CLI's stdin: a stream that cannot be read twice, written to in 64 KiB pieces as a pipe's come. */
function stdinChunks(bytes: Buffer): Opened {
  const stdin = new PassThrough();
  const write = async () => {
    for (let at = 0; at < bytes.length; at += 65_536)
      if (!stdin.write(bytes.subarray(at, at + 65_536))) await once(stdin, 'drain');
    stdin.end();
  };
  write().catch((error) => stdin.destroy(error));
  return { chunks: openInput('-', stdin) };
}

const pools: BlockPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

async function threaded(text: string, { chunks, seekable }: Opened) {
  const blocks = new BlockPool(2, {
    blockBytes: 64 * 1024,
    blockCores: 1,
    rangeBytes: 256 * 1024,
    readHereFirst: 0,
    splitAfterMs: 0,
    sampleMs: 0,
    minRestMs: 0,
    coreFree: () => () => true,
    worker: failingWorker,
  });
  pools.push(blocks);
  await blocks.warm();
  const options = { blocks: { ...blocks.options, ...(seekable ? { seekable } : {}) } };
  const result = await diagnoseStream('big.log', chunks, playbooks, options);
  return { blocks, result, alone: await diagnoseText('big.log', text, playbooks, {}) };
}

describe.each([
  ['runs out of its heap', FAIL_LINE.heap, /reaching memory limit/],
  ['throws', FAIL_LINE.throws, /a bug while reading a block/],
  ['ends', FAIL_LINE.exits, /exited with code: 3/],
])('a block thread that %s mid-block', (_, line, why) => {
  it.each([
    ['a file', fileChunks],
    ['a file read by ranges', fileRanges],
    ['stdin', stdinChunks],
  ])(
    'leaves the diagnosis of %s what one thread gives',
    async (_, chunksOf) => {
      const text = logFailingAt(line);
      const { blocks, result, alone } = await threaded(text, chunksOf(Buffer.from(text)));
      expect(JSON.stringify(result)).toBe(JSON.stringify(alone));
      expect(result.report.diagnoses.map((d) => d.playbook)).toContain('spark-executor-overhead-killed');
      expect(blocks.blocksRead).toBeGreaterThan(3);
      expect(blocks.rangesRead > 0).toBe(chunksOf === fileRanges);
      // Said, for the command to tell (threadNotes); the threads are stopped, the next input read here.
      expect(blocks.lost).toMatch(why);
      expect(blocks.options.ready?.({ bytesRead: 0 })).toBe(false);
      expect(blocks.running).toBe(false);
    },
    60_000,
  );
});

describe('what the command tells of the threads', () => {
  it('says a thread failed, that the report is complete, and how to read on one thread', () => {
    expect(threadNotes(undefined, undefined)).toEqual([]);
    expect(
      threadNotes(undefined, 'Worker terminated due to reaching memory limit: JS heap out of memory'),
    ).toMatchInlineSnapshot(`
      [
        "memdoctor: a thread reading part of a large input failed (Worker terminated due to reaching memory limit: JS heap out of memory); that part and the rest of the input were read on one thread, so the report is complete. To read on one thread from the start: MEMDOCTOR_DIAGNOSE_THREADS=0
      ",
      ]
    `);
  });
});
