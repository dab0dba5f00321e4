import { Piscina } from 'piscina';
import type { HeapDiagnosis } from '../diagnosis/heap-dump.ts';
import type { HeapDumpJob } from '../diagnosis/heap-dump-file.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { EngineBusyError, EngineTimeoutError, ErrorCode, MemdoctorError, messageOf } from '../errors.ts';
import type { HeapReply } from './heap-worker.ts';
import { workerFile } from './worker-file.ts';

export interface HeapPoolOptions {
  playbooks: readonly Playbook[];
  /** MEMDOCTOR_HEAP_DUMP_BUDGET: what one analysis may take; the thread's JavaScript heap is capped at it. */
  budgetBytes: number;
  /** Dumps allowed to wait while one is read; one more is refused as busy. */
  maxQueue?: number;
  /** Longest one dump may take before it is stopped. */
  budgetMs?: number;
  /** The thread's file, when not heap-worker (tests). */
  worker?: { filename: string; execArgv: string[] };
}

/** A thread that has read a dump stays this long for the next one, then ends and gives its memory back. */
const IDLE_MS = 5_000;

/**
 * One thread that reads heap dumps, apart from the event loop and from the diagnosis threads: a dump
 * may take minutes and gigabytes, and logs keep being answered meanwhile. One dump at a time, so the
 * budget bounds the memory of all of them; the thread's V8 heap is capped at the budget, so a dump
 * whose estimate was short ends that thread, not the process that answers Slack.
 */
export class HeapPool {
  private readonly pool: Piscina;
  private readonly budgetMs: number;
  private readonly maxQueue: number;
  private inPool = 0;

  constructor(options: HeapPoolOptions) {
    const { filename, execArgv } = options.worker ?? workerFile('heap-worker');
    this.budgetMs = options.budgetMs ?? 15 * 60_000;
    this.maxQueue = options.maxQueue ?? 4;
    this.pool = new Piscina({
      filename,
      execArgv,
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: Math.max(64, Math.floor(options.budgetBytes / 1024 ** 2)) },
      workerData: { playbooks: options.playbooks },
    });
    // A thread that dies holding no task must not end the process (engine-pool.ts says why).
    this.pool.on('error', () => undefined);
  }

  /** True when one more dump would be refused: one is being read and maxQueue wait (ask before downloading it). */
  get full(): boolean {
    return this.inPool > this.maxQueue;
  }

  /** The analysis of one dump file in the heap thread; refused as busy when maxQueue dumps wait. */
  async run(job: HeapDumpJob): Promise<HeapDiagnosis> {
    if (this.full) throw new EngineBusyError(this.inPool - 1);
    this.inPool++;
    const deadline = AbortSignal.timeout(this.budgetMs);
    try {
      const reply = (await this.pool.run(job, { signal: deadline })) as HeapReply;
      if (!reply.ok) throw new MemdoctorError(reply.code as ErrorCode, reply.message);
      return reply.result;
    } catch (error) {
      if (deadline.aborted) throw new EngineTimeoutError(this.budgetMs);
      if (error instanceof MemdoctorError) throw error;
      throw new MemdoctorError(
        ErrorCode.Internal,
        `${job.source}: the heap dump's analysis stopped (${messageOf(error)}); it may need more memory than MEMDOCTOR_HEAP_DUMP_BUDGET gives it, or run \`memdoctor diagnose ${job.source}\` on a machine with more`,
      );
    } finally {
      this.inPool--;
    }
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
