import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import type { BlockFacts, BlockJob, BlockOptions } from '../engine/blocks.ts';
import { workerFile } from './worker-file.ts';

/**
 * Threads that read the blocks of a large input (engine/blocks.ts) for a one-off command such as
 * `memdoctor diagnose`: one per core, since the thread that hands the blocks out mostly waits. The
 * threads start with the first block, so an input too small to be split starts none.
 */
export class BlockPool {
  private pool?: Promise<Piscina>;

  /** `sizes`: the engine's defaults unless given (tests split small inputs). */
  constructor(
    private readonly threads = availableParallelism(),
    private readonly sizes: Pick<BlockOptions, 'blockBytes' | 'readHereFirst'> = {},
  ) {}

  /** The engine's options for reading in blocks through this pool. */
  get options(): BlockOptions {
    return { offload: (job) => this.read(job), inFlight: this.threads * 2, ...this.sizes };
  }

  /** True once the threads have been started (by a block, or by warm). */
  get started(): boolean {
    return this.pool !== undefined;
  }

  /**
   * Starts the threads now, for an input known to be large (a file's size): they load while this
   * thread reads the input's start, instead of after it.
   */
  warm(): void {
    this.pool ??= this.start();
  }

  private async read(job: BlockJob): Promise<BlockFacts> {
    this.pool ??= this.start();
    const pool = await this.pool;
    // Each chunk's memory is the job's alone (blocks.ts), so it moves to the thread without a copy.
    const transferList = [...new Set(job.chunks.map((chunk) => chunk.buffer as ArrayBuffer))];
    return pool.run(job, { transferList });
  }

  /** piscina is loaded with the first block: a one-line diagnosis never loads it. */
  private async start(): Promise<Piscina> {
    const { Piscina } = await import('piscina');
    const { filename, execArgv } = workerFile('block-worker');
    return new Piscina({ filename, execArgv, minThreads: this.threads, maxThreads: this.threads });
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await (await pool)?.destroy();
  }
}
