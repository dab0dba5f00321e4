import { Piscina } from 'piscina';
import { defaultEngineThreads } from '../config.ts';
import type { EngineJob, EngineReply } from '../diagnosis/engine-job.ts';
import { ownsItsBuffer } from '../engine/blocks.ts';
import type { EngineResult } from '../engine/index.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { EngineBusyError, EngineTimeoutError, type ErrorCode, MemdoctorError } from '../errors.ts';
import { workerFile } from './worker-file.ts';

/** How the pool is sized (MEMDOCTOR_ENGINE_THREADS, _QUEUE, _TIMEOUT_MS); each has a default. */
export interface EnginePoolOptions {
  playbooks: readonly Playbook[];
  /** Worker threads; default: the cores less one for the event loop, at least 1. */
  threads?: number;
  /** Inputs allowed to wait for a thread; one more is refused as busy. */
  maxQueue?: number;
  /** Longest one input may take in a thread before it is stopped. */
  budgetMs?: number;
  /** Told of a thread that died holding no task (piscina replaces it); the caller logs and counts it. */
  onThreadError?: (error: Error) => void;
  /** The thread's file, when not engine-worker (tests give one that dies). */
  worker?: { filename: string; execArgv: string[] };
}

/** A view over a whole buffer of its own can be moved to the thread; a slice of Node's pool is copied. */
function ownsBuffer(bytes: Uint8Array | undefined): bytes is Uint8Array {
  return bytes !== undefined && ownsItsBuffer(bytes);
}

/**
 * Runs the engine in worker threads so the event loop that answers Slack is never held by a
 * diagnosis: a bounded queue (full means busy, said so), and a time budget per input.
 */
export class EnginePool {
  private readonly pool: Piscina;
  private readonly maxQueue: number;
  private readonly budgetMs: number;
  private readonly threads: number;
  private running = 0;
  private threadErrorCount = 0;

  constructor(options: EnginePoolOptions) {
    const threads = options.threads ?? defaultEngineThreads();
    this.threads = threads;
    this.maxQueue = options.maxQueue ?? 32;
    this.budgetMs = options.budgetMs ?? 60_000;
    const { filename, execArgv } = options.worker ?? workerFile('engine-worker');
    this.pool = new Piscina({
      filename,
      execArgv,
      minThreads: threads,
      maxThreads: threads,
      // Admission is decided in run(); piscina's own bound only leaves room for threads still starting.
      maxQueue: this.maxQueue + threads,
      workerData: { playbooks: options.playbooks },
    });
    // A thread that dies holding no task is reported by piscina as an 'error' event; unheard, Node
    // would throw it and end the process that answers Slack (as block-pool.ts learnt).
    this.pool.on('error', (error: unknown) => {
      this.threadErrorCount++;
      options.onThreadError?.(error instanceof Error ? error : new Error(String(error)));
    });
  }

  /** Threads that died holding no task since the pool started. */
  get threadErrors(): number {
    return this.threadErrorCount;
  }

  /** Inputs waiting for a thread now (the metric and the "queued" notice read it). */
  get waiting(): number {
    return this.pool.queueSize;
  }

  /** True when a new input would wait for a thread rather than start at once. */
  get saturated(): boolean {
    return this.running >= this.threads;
  }

  /** True when a new input would be refused as busy: every thread taken and maxQueue inputs waiting. */
  get full(): boolean {
    return this.running >= this.threads + this.maxQueue;
  }

  async run(job: EngineJob): Promise<EngineResult> {
    if (this.full) throw new EngineBusyError(this.running - this.threads);
    const signal = AbortSignal.timeout(this.budgetMs);
    const transferList = ownsBuffer(job.bytes) ? [job.bytes.buffer as ArrayBuffer] : [];
    this.running++;
    let reply: EngineReply;
    try {
      reply = (await this.pool.run(job, { signal, transferList })) as EngineReply;
    } catch (error) {
      if (signal.aborted) throw new EngineTimeoutError(this.budgetMs);
      throw error;
    } finally {
      this.running--;
    }
    if (!reply.ok) throw new MemdoctorError(reply.code as ErrorCode, reply.message);
    return reply.result;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
