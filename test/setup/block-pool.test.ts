import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openInput, seekableInput } from '../../src/cli/input.ts';
import type { BlockOptions } from '../../src/engine/blocks.ts';
import { diagnoseStream, diagnoseText } from '../../src/engine/index.ts';
import type { SeekableInput } from '../../src/engine/ranges.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { BlockPool, coreFreeSince, coresSpare } from '../../src/setup/block-pool.ts';
import { behind, paced } from './paced.ts';

const playbooks = loadPlaybooks();
const ORDINARY = [
  '24/11/30 10:00:01 INFO TaskSetManager: Finished task 3.0 in stage 7.0 (TID 42) in 1234 ms on host-17 (executor 5) (3/200)',
  '2024-03-01 10:21:23,014 INFO  org.apache.flink.runtime.executiongraph.ExecutionGraph [] - Source: Kafka -> Map (49/64) switched from DEPLOYING to RUNNING.',
];
const FAILURES = [
  'java.lang.OutOfMemoryError: Java heap space',
  'Container killed by YARN for exceeding memory limits. 11.2 GB of 11 GB physical memory used. Consider boosting spark.executor.memoryOverhead.',
  '--conf spark.executor.memory=8g',
];

/** About 2 MB of ordinary lines with failures and settings spread through it. */
function largeLog(): string {
  const lines: string[] = [];
  for (let i = 0; i < 16_000; i++) {
    lines.push(ORDINARY[i % ORDINARY.length] as string);
    if (i % 1999 === 1998) lines.push(FAILURES[((i / 1999) % FAILURES.length) | 0] as string);
  }
  return `${lines.join('\n')}\n`;
}

async function* chunks(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  // Each chunk with memory of its own, as a file's reads come: the pool moves them to its threads.
  for (let at = 0; at < bytes.length; at += size) yield new Uint8Array(bytes.subarray(at, at + size));
}

/**
 * Asks whether the threads are ready as the reader does before two chunks of a file, 2 ms apart:
 * the first answer starts the sample, the second judges it (and is returned).
 */
async function askTwice(options: BlockOptions, restBytes: number): Promise<boolean | undefined> {
  options.ready?.({ bytesRead: 1, restBytes });
  await setTimeout(2);
  return options.ready?.({ bytesRead: 2, restBytes });
}

const pools: BlockPool[] = [];

/** A file holding `text`, in a folder of its own removed after `use`. */
async function withFile(name: string, text: string, use: (path: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'memdoctor-ranges-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  try {
    await use(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Threads that start at once and read a file by small ranges, started. */
async function rangePool(): Promise<BlockPool> {
  const blocks = new BlockPool(2, { rangeBytes: 64 * 1024, readHereFirst: 0, sampleMs: 0, minRestMs: 0 });
  pools.push(blocks);
  await blocks.warm();
  return blocks;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('the block pool', () => {
  it('reads a large input in worker threads with the result of reading it in order here', async () => {
    const text = largeLog();
    const blocks = new BlockPool(2, {
      blockBytes: 64 * 1024,
      blockCores: 1,
      readHereFirst: 0,
      splitAfterMs: 0,
    });
    pools.push(blocks);
    await blocks.warm();
    const inOrder = await diagnoseText('big.log', text, playbooks, { skim: false });
    const split = await diagnoseStream('big.log', chunks(Buffer.from(text), 16 * 1024), playbooks, {
      blocks: blocks.options,
    });
    expect(blocks.blocksRead).toBeGreaterThan(10);
    expect(JSON.stringify(split)).toBe(JSON.stringify(inOrder));
    expect(blocks.lost).toBeUndefined();
    expect(split.report.diagnoses.length).toBeGreaterThan(0);
  });

  it('has the threads read ranges of a file from its end, from the file, with the result of reading it in order', async () => {
    const text = largeLog();
    await withFile('big.log', text, async (path) => {
      const blocks = await rangePool();
      const seekable = seekableInput(path);
      expect(seekable?.size).toBe(Buffer.byteLength(text));
      // Read here behind the threads, so that they read most of it from its end.
      const split = await diagnoseStream(
        'big.log',
        behind(openInput(path), () => blocks.rangesRead),
        playbooks,
        {
          blocks: { ...blocks.options, ...(seekable ? { seekable } : {}) },
        },
      );
      expect(blocks.rangesRead).toBeGreaterThan(10);
      expect(blocks.rangesRead).toBe(blocks.blocksRead);
      const inOrder = await diagnoseText('big.log', text, playbooks, { skim: false });
      expect(JSON.stringify(split)).toBe(JSON.stringify(inOrder));
      expect(split.report.diagnoses.length).toBeGreaterThan(0);
    });
  });

  it('fails the input, not the threads, when another file is renamed over it while its ranges are read', async () => {
    const text = largeLog();
    await withFile('app.log', text, async (path) => {
      const blocks = await rangePool();
      const seekable = seekableInput(path) as SeekableInput;
      // Rotated once this thread has the file open: it reads on in the old one, the ranges open the new.
      async function* rotatedAfterFirst(): AsyncGenerator<Uint8Array> {
        let first = true;
        for await (const chunk of paced(openInput(path), 10)) {
          yield chunk;
          if (!first) continue;
          first = false;
          writeFileSync(`${path}.next`, text);
          renameSync(`${path}.next`, path);
        }
      }
      const diagnosis = diagnoseStream('app.log', rotatedAfterFirst(), playbooks, {
        blocks: { ...blocks.options, seekable },
      });
      await expect(diagnosis).rejects.toThrow(/app\.log.*renamed over it/);
      expect(blocks.rangesRead).toBeGreaterThan(0);
      expect(blocks.lost).toBeUndefined();
      expect(blocks.running).toBe(true);
    });
  });

  it('judges a file whose size is known by the time its rest would take here, after a short sample', async () => {
    const short = new BlockPool(2, { sampleMs: 0, splitAfterMs: 60_000, coreFree: () => () => true });
    const long = new BlockPool(2, { sampleMs: 0, splitAfterMs: 60_000, coreFree: () => () => true });
    const unsampled = new BlockPool(2, { sampleMs: 60_000, coreFree: () => () => true });
    pools.push(short, long, unsampled);
    // No rest to speak of: nothing started, however long the input's size.
    expect(await askTwice(short.options, 0)).toBe(false);
    expect(short.running).toBe(false);
    // A rest that would take hours at the speed it was read: started, not after splitAfterMs.
    expect(await askTwice(long.options, 1e12)).toBe(false);
    expect(long.running).toBe(true);
    // Not yet sampled long enough: undecided, nothing started.
    expect(unsampled.options.ready?.({ bytesRead: 1, restBytes: 1e12 })).toBe(false);
    expect(unsampled.running).toBe(false);
  });

  it('starts no thread for the blocks of an input that is not a file on a machine with too few cores', async () => {
    const cores = availableParallelism();
    const few = new BlockPool(2, {
      splitAfterMs: 0,
      sampleMs: 0,
      blockCores: cores + 1,
      coreFree: () => () => true,
    });
    const enough = new BlockPool(2, { splitAfterMs: 0, blockCores: cores, coreFree: () => () => true });
    pools.push(few, enough);
    expect(few.options.ready?.({ bytesRead: 1 << 30 })).toBe(false);
    expect(few.running).toBe(false);
    enough.options.ready?.({ bytesRead: 1 << 30 });
    expect(enough.running).toBe(true);
    // A file's ranges are judged by their own rule on the same machine.
    expect(await askTwice(few.options, 1e12)).toBe(false);
    expect(few.running).toBe(true);
  });

  it('starts no thread for a file with a long rest when the machine has no core to spare', async () => {
    const blocks = new BlockPool(2, { sampleMs: 0, coreFree: () => () => false });
    pools.push(blocks);
    expect(await askTwice(blocks.options, 1e12)).toBe(false);
    expect(blocks.running).toBe(false);
  });

  it('starts no thread for an input read in order before its time is up', async () => {
    const blocks = new BlockPool(2, {
      blockBytes: 64 * 1024,
      blockCores: 1,
      readHereFirst: 0,
      splitAfterMs: 60_000,
    });
    pools.push(blocks);
    const text = largeLog();
    const result = await diagnoseStream('big.log', chunks(Buffer.from(text), 16 * 1024), playbooks, {
      blocks: blocks.options,
    });
    expect(blocks.running).toBe(false);
    expect(JSON.stringify(result)).toBe(JSON.stringify(await diagnoseText('big.log', text, playbooks, {})));
  });

  it('starts no thread, and reads in order with the same result, when the machine has no core to spare', async () => {
    let asked = 0;
    const busy = () => () => {
      asked++;
      return false;
    };
    const blocks = new BlockPool(2, {
      blockBytes: 64 * 1024,
      blockCores: 1,
      readHereFirst: 0,
      splitAfterMs: 0,
      coreFree: busy,
    });
    pools.push(blocks);
    const text = largeLog();
    const result = await diagnoseStream('big.log', chunks(Buffer.from(text), 16 * 1024), playbooks, {
      blocks: blocks.options,
    });
    expect(blocks.running).toBe(false);
    // Asked once for the input, not again for each of its chunks.
    expect(asked).toBe(1);
    expect(JSON.stringify(result)).toBe(JSON.stringify(await diagnoseText('big.log', text, playbooks, {})));
  });

  it('starts the threads for an input once a core was free while it was read in order', async () => {
    const blocks = new BlockPool(2, {
      blockBytes: 64 * 1024,
      blockCores: 1,
      readHereFirst: 0,
      splitAfterMs: 0,
      coreFree: () => () => true,
    });
    pools.push(blocks);
    const text = largeLog();
    await diagnoseStream('big.log', chunks(Buffer.from(text), 16 * 1024), playbooks, {
      blocks: blocks.options,
    });
    expect(blocks.running).toBe(true);
  });

  it('keeps one block waiting beyond one per thread', () => {
    expect(new BlockPool(2).options.inFlight).toBe(3);
    expect(new BlockPool(4).options.inFlight).toBe(5);
  });

  it("counts the cores other processes left, not this process's own background work, as spare", () => {
    // 100 ms on two cores, nothing else running: this process used 1.45 cores (its reader, V8's
    // background threads, the file reads), as measured early in a 1 GiB read.
    expect(coresSpare({ cores: 2, total: 200, idle: 55, own: 145 })).toBeCloseTo(1);
    // Another process held a whole core: none spare beside the reader.
    expect(coresSpare({ cores: 2, total: 200, idle: 0, own: 100 })).toBeCloseTo(0);
    // Half a core taken by others: a quarter short of FREE_CORE.
    expect(coresSpare({ cores: 2, total: 200, idle: 50, own: 100 })).toBeCloseTo(0.5);
    // Ticks counted coarsely can make own exceed the busy time: never a negative load of others.
    expect(coresSpare({ cores: 2, total: 200, idle: 100, own: 120 })).toBeCloseTo(1);
  });

  it('finds a core free when too little time has passed to measure the machine', () => {
    expect(coreFreeSince()()).toBe(true);
  });

  it('reads on one thread, with the same result, when the threads cannot start, and says why', async () => {
    const blocks = new BlockPool(2, {
      blockBytes: 64 * 1024,
      blockCores: 1,
      readHereFirst: 0,
      splitAfterMs: 0,
      worker: 'no-such-worker',
    });
    pools.push(blocks);
    const text = largeLog();
    const result = await diagnoseStream('big.log', chunks(Buffer.from(text), 1024), playbooks, {
      blocks: blocks.options,
    });
    expect(JSON.stringify(result)).toBe(JSON.stringify(await diagnoseText('big.log', text, playbooks, {})));
    await expect(blocks.warm()).rejects.toThrow();
    expect(blocks.failure).toMatch(/no-such-worker/);
    expect(blocks.blocksRead).toBe(0);
  });

  it('starts no thread for an input shorter than a block', async () => {
    const blocks = new BlockPool(2);
    pools.push(blocks);
    const text = Buffer.from(largeLog());
    const result = await diagnoseStream('small.log', chunks(text, 16 * 1024), playbooks, {
      blocks: blocks.options,
    });
    expect(blocks.running).toBe(false);
    expect(result.report.input.lines).toBe(16_008);
  });
});
