import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { defaultEngineThreads } from '../config.ts';
import type { CaseInputJob, EngineJob, EngineReply } from '../diagnosis/engine-job.ts';
import type { StoredInput } from '../engine/case/index.ts';
import type { EngineResult } from '../engine/index.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { EngineBusyError, EngineTimeoutError, ErrorCode, MemdoctorError } from '../errors.ts';
import { ChunkSender } from './chunk-stream.ts';
import type { EngineTask } from './engine-worker.ts';
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

/** The job as the thread takes it, without its stream. */
function taskOf(job: EngineJob): EngineTask {
  return {
    source: job.source,
    ...(job.text !== undefined ? { text: job.text } : {}),
    ...(job.engine ? { engine: job.engine } : {}),
    ...(job.maxBytes !== undefined ? { maxBytes: job.maxBytes } : {}),
  };
}

/** What a thread's reply holds, or the error it reported (as the MemdoctorError it was). */
function resultOf(reply: EngineReply, kind: 'result'): EngineResult;
function resultOf(reply: EngineReply, kind: 'stored'): StoredInput;
function resultOf(reply: EngineReply, kind: 'result' | 'stored'): EngineResult | StoredInput {
  if (!reply.ok) throw new MemdoctorError(reply.code as ErrorCode, reply.message);
  if (kind === 'result' && 'result' in reply) return reply.result;
  if (kind === 'stored' && 'stored' in reply) return reply.stored;
  throw new MemdoctorError(ErrorCode.Internal, `a diagnosis thread answered without its ${kind}`);
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

  /**
   * Diagnoses one input in a thread. A file's bytes are streamed to the thread as they arrive (at
   * most chunk-stream's window at a time), never gathered here first.
   */
  async run(job: EngineJob): Promise<EngineResult> {
    if (this.full) throw new EngineBusyError(this.running - this.threads);
    this.running++;
    let reply: EngineReply;
    try {
      reply = job.chunks ? await this.runStream(job, job.chunks) : await this.runTask(taskOf(job));
    } finally {
      this.running--;
    }
    return resultOf(reply, 'result');
  }

  /**
   * Reads one input of a case in a thread into what the case keeps (its keys and facts), with the
   * same queue, budget and streaming as a diagnosis: the event loop never reads the lines itself.
   */
  async readCase(job: CaseInputJob): Promise<StoredInput> {
    if (this.full) throw new EngineBusyError(this.running - this.threads);
    this.running++;
    try {
      const task = { source: job.source, maxBytes: job.maxBytes, caseInput: true };
      const reply = await this.runStream(
        { ...task, ...(job.onRead ? { onRead: job.onRead } : {}) },
        job.chunks,
        task,
      );
      return resultOf(reply, 'stored');
    } finally {
      this.running--;
    }
  }

  /**
   * The task is given to a thread once the input's first bytes are in hand: an input still waiting
   * for them (for room under the in-flight cap, for Slack) holds no thread meanwhile.
   */
  private async runStream(
    job: EngineJob,
    chunks: AsyncIterable<Uint8Array>,
    task: EngineTask = taskOf(job),
  ): Promise<EngineReply> {
    const { port1, port2 } = new MessageChannel();
    const sender = new ChunkSender(chunks, port1, job.onRead);
    try {
      await sender.opened;
      const reply = await this.runTask({ ...task, port: port2 }, [port2]);
      // A failed download also ends the thread's read; its own error says more than the thread's echo.
      if (sender.failure) throw sender.failure.error;
      return reply;
    } finally {
      sender.stop();
    }
  }

  /** Runs a task within the time budget (counted from here, waiting for a thread included). */
  private async runTask(task: EngineTask, transferList: MessagePort[] = []): Promise<EngineReply> {
    const signal = AbortSignal.timeout(this.budgetMs);
    try {
      return (await this.pool.run(task, { signal, transferList })) as EngineReply;
    } catch (error) {
      if (signal.aborted) throw new EngineTimeoutError(this.budgetMs);
      throw error;
    }
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
