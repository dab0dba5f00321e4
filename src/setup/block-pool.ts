import { availableParallelism, cpus } from 'node:os';
import type { Piscina } from 'piscina';
import type { RangeFacts } from '../engine/block-read.ts';
import type { BlockFacts, BlockJob, BlockOptions, SplitProgress } from '../engine/blocks.ts';
import type { RangeJob } from '../engine/ranges.ts';
import { messageOf } from '../errors.ts';
import { isReplaced } from '../file-chunks.ts';
import { workerFile } from './worker-file.ts';

/**
 * How long an input is read in order on this thread before the other threads are started for its
 * blocks. Shorter inputs never pay for them: measured on two cores, their start-up and the kinds each
 * block must fill again are not paid back by a diagnosis of under a second (a 256 MiB realistic
 * log). The input goes on being read in order while they start.
 */
export const SPLIT_AFTER_MS = 1000;

/**
 * A file (whose size is known: the threads read ranges of it) is timed over the second SAMPLE_MS
 * of its reading, the first being start-up: the speed of the first 100 ms overestimated the rest
 * of the bench's logs 3 to 9 times, that of the next 100 ms by 0.6 to 1.6 times.
 */
export const SAMPLE_MS = 100;

/**
 * The least time the rest of a file must be expected to take on this thread for a thread to be
 * started for it. Measured on two cores: logs whose rest took under a second (the bench's 256 MiB
 * realistic and dense ones, 0.7-0.9 s in all) ran 0.08-0.1 s slower with it; 1.3 s and more, faster.
 */
export const MIN_REST_MS = 1000;

/**
 * Cores a machine needs before the threads read the blocks of an input that is not a file (stdin,
 * gzip): this thread then reads, gunzips and copies every byte for them, and on two cores they never
 * paid (measured: synthetic 256 MiB .gz 2.72 s with them against 2.55 s without; docs/bench.md).
 */
export const BLOCK_CORES = 3;

/**
 * Cores other processes left free (averaged over the time measured), beyond the one the thread
 * reading in order holds, needed to start the threads. On a machine busy with other work they would
 * only share the same cores: measured on two cores, they then made a run slower than one thread
 * (8.6 s against 7.2 s) and cost more CPU.
 */
export const FREE_CORE = 0.75;

/** The machine's CPU time so far, idle and in all, over every core (os.cpus: milliseconds). */
function cpuTimes(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const { times } of cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

/** Less than this since the first look (ms of every core's time) measures nothing: the kernel counts in ticks. */
const MIN_SAMPLE_MS = 50;

/**
 * A test of whether, since it was made, other processes left a core to spare (FREE_CORE on average)
 * beside the one this process reads on. This process's own time is not held against it: besides the
 * reading thread, V8's background threads and the file reads took up to half a core of their own
 * (measured over 100 ms early in a 1 GiB read: 0.53-0.80 cores idle of two on a quiet machine).
 * With too little time measured (a split asked for at once) it says yes.
 */
export function coreFreeSince(): () => boolean {
  const before = cpuTimes();
  const ownBefore = process.cpuUsage();
  const cores = cpus().length;
  return () => {
    const after = cpuTimes();
    const total = after.total - before.total;
    if (total < MIN_SAMPLE_MS * cores) return true;
    const own = process.cpuUsage(ownBefore);
    const idle = after.idle - before.idle;
    return coresSpare({ cores, total, idle, own: (own.user + own.system) / 1000 }) >= FREE_CORE;
  };
}

/**
 * Cores other processes left over a time measured, less the one this process reads on. `total` and
 * `idle`: every core's time and its idle part (ms); `own`: this process's CPU time (ms, every thread).
 */
export function coresSpare({
  cores,
  total,
  idle,
  own,
}: {
  cores: number;
  total: number;
  idle: number;
  own: number;
}) {
  const others = Math.max(0, total - idle - own);
  return ((total - others) / total) * cores - 1;
}

/**
 * Each thread's young generation, in MB. With V8's default (up to 16 MB semi-spaces) a block's lines
 * were collected late and the threads held dozens of MB of them: 215 MB peak RSS on a 256 MiB log,
 * 171 MB with 4 MB. Since the blocks' bytes come in reused slabs, 2 MB holds less again (below).
 */
const YOUNG_GENERATION_MB = 2;

/**
 * Each thread's old generation, in MB. Each block leaves some garbage there, and V8 collects it
 * only once the generation has grown by a step over what survived the last full collection (10-12
 * MB: the loaded engine), a step that shrinks as the bound nears; a thread reaches it only after a
 * hundred blocks or so. With 48 each thread's heap grew from 16 to 24 MB during a 1 GiB log, whose
 * peak RSS (Node 22, threads forced) was 159-160 MiB against 138-144 at 256 MiB; with 20 it stays
 * under 20 MB (1 GiB: 149-150 MiB). 16 was too tight: the block-pool tests' threads, which load the
 * engine through tsx, ran out of heap under Node 22.
 */
const OLD_GENERATION_MB = 20;

export interface BlockTuning
  extends Pick<BlockOptions, 'blockBytes' | 'readHereFirst' | 'inFlight' | 'rangeBytes'> {
  /** SPLIT_AFTER_MS unless given (tests split at once). */
  splitAfterMs?: number;
  /** SAMPLE_MS and MIN_REST_MS unless given (tests split a small file at once). */
  sampleMs?: number;
  minRestMs?: number;
  /** BLOCK_CORES unless given (tests read blocks on any machine). */
  blockCores?: number;
  /** Whether a core is free for the threads, asked once per input when its time is up (coreFreeSince). */
  coreFree?: () => () => boolean;
  /**
   * The worker file's name (worker-file.ts), or the file itself: tests name one that does not exist,
   * or give one that fails mid-block.
   */
  worker?: string | { filename: string; execArgv: string[] };
}

type SplitRules = Pick<BlockTuning, 'splitAfterMs' | 'sampleMs' | 'minRestMs' | 'blockCores'>;

/**
 * Whether the threads are worth starting for the input whose reading starts now: undefined until it
 * has been read long enough to judge. `free` tells whether a core was idle meanwhile.
 */
function splitJudge(
  rules: SplitRules,
  coreFree: () => () => boolean,
): (progress: SplitProgress) => boolean | undefined {
  const { splitAfterMs = SPLIT_AFTER_MS, sampleMs = SAMPLE_MS, minRestMs = MIN_REST_MS } = rules;
  const { blockCores = BLOCK_CORES } = rules;
  const began = performance.now();
  // An input of unknown length: idle cores counted from its start, over a second.
  const free = coreFree();
  let sample: { at: number; bytesRead: number; free: () => boolean } | undefined;
  return ({ bytesRead, restBytes }) => {
    const elapsed = performance.now() - began;
    if (restBytes === undefined) {
      if (availableParallelism() < blockCores) return false;
      return elapsed < splitAfterMs ? undefined : free();
    }
    if (elapsed < sampleMs) return undefined;
    // A file: idle cores counted over the sample too. Over its first 100 ms the process's own start
    // (V8 compiling on its background threads) left less than the needed core idle.
    sample ??= { at: elapsed, bytesRead, free: coreFree() };
    const read = bytesRead - sample.bytesRead;
    if (elapsed < sample.at + sampleMs || read <= 0) return undefined;
    // The rest at the speed of the sample: only a long one pays for a thread's start-up.
    return (restBytes * (elapsed - sample.at)) / read >= minRestMs && sample.free();
  };
}

/**
 * Threads that read the parts of a large input for a one-off command such as `memdoctor diagnose`:
 * a file's ranges from its end while the reader reads on (engine/range-reader.ts), or the blocks of
 * any other input the reader hands out (engine/blocks.ts). They start (piscina is loaded) only once
 * the input has shown itself long enough (a file's rest expected to take MIN_REST_MS; any other
 * input still being read after SPLIT_AFTER_MS, on BLOCK_CORES cores), and only if the machine had a
 * core to spare meanwhile (coreFreeSince).
 */
export class BlockPool {
  private pool?: Promise<Piscina>;
  private ready = false;
  private blocks = 0;
  private ranges = 0;
  private startFailure?: string;
  private lostThread?: string;

  /** `tuning`: the engine's defaults and SPLIT_AFTER_MS unless given (tests split small inputs). */
  constructor(
    private readonly threads = availableParallelism(),
    private readonly tuning: BlockTuning = {},
  ) {}

  /**
   * The engine's options for reading one input in blocks through this pool: take one for each
   * input, when it starts (the time it has been read in order is counted from then).
   */
  get options(): BlockOptions {
    const { worker: _, coreFree = coreFreeSince, ...rest } = this.tuning;
    const { splitAfterMs, sampleMs, minRestMs, blockCores, ...sizes } = rest;
    const judge = splitJudge({ splitAfterMs, sampleMs, minRestMs, blockCores }, coreFree);
    let worthIt: boolean | undefined;
    const ready = (progress: SplitProgress) => {
      // After a thread failed, the inputs are read in order here (see `lost`).
      if (this.lostThread !== undefined) return false;
      if (this.ready) return true;
      // Decided once per input: threads started on a busy machine only slow the run down.
      worthIt ??= judge(progress);
      // Threads that failed to start leave the input to be read in order here (see `failure`).
      if (worthIt) this.warm().catch(() => undefined);
      return this.ready;
    };
    // One block waiting beyond one per thread: each more held 2 MiB of slabs (4 in flight against 3:
    // the same wall time on the synthetic 256 MiB log).
    const offload = (job: BlockJob) => this.read<BlockFacts>(job);
    const offloadRange = (job: RangeJob) => this.read<RangeFacts>(job);
    return { offload, offloadRange, ready, inFlight: this.threads + 1, ...sizes };
  }

  /** True once the threads have been started. */
  get running(): boolean {
    return this.pool !== undefined;
  }

  /** Why the threads could not start, once they could not: the inputs were read on one thread. */
  get failure(): string | undefined {
    return this.startFailure;
  }

  /**
   * Why a started thread failed (out of heap, an error, its end), once one did: the threads were
   * stopped, and the reader read that block, the rest of that input and every later one on its own.
   */
  get lost(): string | undefined {
    return this.lostThread;
  }

  /** Blocks and ranges the threads have been given so far. */
  get blocksRead(): number {
    return this.blocks;
  }

  /** Of blocksRead, the ranges: the parts of a file the threads read from the file themselves. */
  get rangesRead(): number {
    return this.ranges;
  }

  /** Starts the threads, if they are not, and resolves once each has loaded the engine. */
  async warm(): Promise<void> {
    await this.started();
  }

  private started(): Promise<Piscina> {
    this.pool ??= this.start();
    return this.pool;
  }

  private async read<Facts extends BlockFacts>(job: BlockJob | RangeJob): Promise<Facts> {
    // Blocks handed out before the reader saw the failure: read there too, not by new threads.
    if (this.lostThread !== undefined) throw new Error(`the threads were stopped: ${this.lostThread}`);
    const pool = await this.started();
    this.blocks++;
    if ('locator' in job) this.ranges++;
    // The chunks are shared slabs (blocks.ts): the thread reads them in place, nothing is copied.
    try {
      return await pool.run(job);
    } catch (error) {
      // The input changed, not the thread: that input fails (its reader reads the range again and
      // says why); the threads stay for the next.
      if (!isReplaced(error)) this.lose(error);
      throw error;
    }
  }

  /**
   * A started thread failed: the threads are stopped for good (the blocks they still hold are read
   * by the reader, which kept their bytes), so the rest of the input has the cores and their memory.
   */
  private lose(error: unknown): void {
    if (this.lostThread !== undefined) return;
    this.lostThread = messageOf(error);
    this.close().catch(() => undefined);
  }

  /** Loads piscina, starts the threads and has each read an empty block, so the engine is loaded. */
  private async start(): Promise<Piscina> {
    const { Piscina } = await import('piscina');
    const { worker = 'block-worker' } = this.tuning;
    const { filename, execArgv } = typeof worker === 'string' ? workerFile(worker) : worker;
    const pool = new Piscina({
      filename,
      execArgv,
      minThreads: this.threads,
      maxThreads: this.threads,
      resourceLimits: {
        maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
        maxOldGenerationSizeMb: OLD_GENERATION_MB,
      },
    });
    // A thread that dies holding no task (the others' first runs already failed) is reported by piscina
    // as an 'error' event; unheard, Node would throw it and end the process.
    pool.on('error', (error: unknown) => {
      if (this.ready || this.lostThread !== undefined) this.lose(error);
      else this.noteFailure(error);
    });
    try {
      await Promise.all(Array.from({ length: this.threads }, () => pool.run({ chunks: [] })));
    } catch (error) {
      this.noteFailure(error);
      await pool.destroy();
      throw error;
    }
    this.ready = true;
    return pool;
  }

  private noteFailure(error: unknown): void {
    this.startFailure ??= messageOf(error);
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    this.ready = false;
    await (await pool?.catch(() => undefined))?.destroy();
  }
}
