import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import type { BlockFacts, BlockJob, BlockOptions } from '../engine/blocks.ts';
import { workerFile } from './worker-file.ts';

/**
 * How long an input is read in order on this thread before the other threads are started for its
 * blocks. Shorter inputs never pay for them: measured on two cores, their start-up and the kinds each
 * block must fill again are not paid back by a diagnosis of under a second (a 256 MiB realistic
 * log). The input goes on being read in order while they start.
 */
export const SPLIT_AFTER_MS = 1000;

export interface BlockTuning extends Pick<BlockOptions, 'blockBytes' | 'readHereFirst'> {
  /** SPLIT_AFTER_MS unless given (tests split at once). */
  splitAfterMs?: number;
  /** The worker file's name (worker-file.ts); tests name one that does not exist. */
  worker?: string;
}

/**
 * Threads that read the blocks of a large input (engine/blocks.ts) for a one-off command such as
 * `memdoctor diagnose`: one per core, since the thread that hands the blocks out mostly waits. They
 * start (piscina is loaded) only once an input has been read in order for SPLIT_AFTER_MS.
 */
export class BlockPool {
  private pool?: Promise<Piscina>;
  private ready = false;
  private blocks = 0;
  private startFailure?: string;

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
    const { splitAfterMs = SPLIT_AFTER_MS, worker: _, ...sizes } = this.tuning;
    const startAt = performance.now() + splitAfterMs;
    const ready = () => {
      // Threads that failed to start leave the input to be read in order here (see `failure`).
      if (!this.ready && performance.now() >= startAt) this.warm().catch(() => undefined);
      return this.ready;
    };
    return { offload: (job) => this.read(job), ready, inFlight: this.threads * 2, ...sizes };
  }

  /** True once the threads have been started. */
  get running(): boolean {
    return this.pool !== undefined;
  }

  /** Why the threads could not start, once they could not: the inputs were read on one thread. */
  get failure(): string | undefined {
    return this.startFailure;
  }

  /** Blocks the threads have been given so far. */
  get blocksRead(): number {
    return this.blocks;
  }

  /** Starts the threads, if they are not, and resolves once each has loaded the engine. */
  async warm(): Promise<void> {
    await this.started();
  }

  private started(): Promise<Piscina> {
    this.pool ??= this.start();
    return this.pool;
  }

  private async read(job: BlockJob): Promise<BlockFacts> {
    const pool = await this.started();
    this.blocks++;
    // Each chunk's memory is the job's alone (blocks.ts), so it moves to the thread without a copy.
    const transferList = [...new Set(job.chunks.map((chunk) => chunk.buffer as ArrayBuffer))];
    return pool.run(job, { transferList });
  }

  /** Loads piscina, starts the threads and has each read an empty block, so the engine is loaded. */
  private async start(): Promise<Piscina> {
    const { Piscina } = await import('piscina');
    const { filename, execArgv } = workerFile(this.tuning.worker ?? 'block-worker');
    const pool = new Piscina({ filename, execArgv, minThreads: this.threads, maxThreads: this.threads });
    // A thread that dies holding no task (the others' first runs already failed) is reported by piscina
    // as an 'error' event; unheard, Node would throw it and end the process.
    pool.on('error', (error: unknown) => this.noteFailure(error));
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
    this.startFailure ??= error instanceof Error ? error.message : String(error);
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    this.ready = false;
    await (await pool?.catch(() => undefined))?.destroy();
  }
}
