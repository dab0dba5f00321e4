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
 * diagnosis: a bounded queue (full means busy, said so), and a time budget per input counted from
 * when its work starts. The queue is the pool's own, in arrival order: an input is handed to piscina
 * only when a thread is free for it, so time spent waiting is never taken from its budget, and a
 * stream is not read (its bytes not held) until its thread is ready to take them.
 */
export class EnginePool {
  private readonly pool: Piscina;
  private readonly maxQueue: number;
  private readonly budgetMs: number;
  private readonly threads: number;
  /** Inputs in the pool: on a thread or waiting for one. */
  private running = 0;
  /** Inputs on a thread (at most `threads`). */
  private active = 0;
  /** Inputs waiting for a thread, oldest first: each is started by the input that frees one. */
  private readonly queue: (() => void)[] = [];
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
      // Admission is decided in run(); piscina's own queue only holds a task while a thread
      // replacing a stopped one starts.
      maxQueue: threads,
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
    return this.queue.length;
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
    const reply = await this.inTurn(job.admit, (deadline) =>
      job.chunks ? this.runStream(job, job.chunks, deadline) : this.runTask(taskOf(job), deadline),
    );
    return resultOf(reply, 'result');
  }

  /**
   * Reads one input of a case in a thread into what the case keeps (its keys and facts), with the
   * same queue, budget and streaming as a diagnosis: the event loop never reads the lines itself.
   */
  async readCase(job: CaseInputJob): Promise<StoredInput> {
    const task = { source: job.source, maxBytes: job.maxBytes, caseInput: true };
    const stream = { ...task, ...(job.onRead ? { onRead: job.onRead } : {}) };
    const reply = await this.inTurn(undefined, (deadline) =>
      this.runStream(stream, job.chunks, deadline, task),
    );
    return resultOf(reply, 'stored');
  }

  /**
   * Runs `work` once a thread is free for it (refused as busy when the queue is full), with its
   * budget counted from then: `admit` first takes what the input holds while it runs.
   */
  private async inTurn(
    admit: EngineJob['admit'],
    work: (deadline: AbortSignal) => Promise<EngineReply>,
  ): Promise<EngineReply> {
    if (this.full) throw new EngineBusyError(this.running - this.threads);
    this.running++;
    try {
      await this.threadFree();
      try {
        const started = () => work(AbortSignal.timeout(this.budgetMs));
        return await (admit ? admit(started) : started());
      } finally {
        this.handOn();
      }
    } finally {
      this.running--;
    }
  }

  /** Resolves once a thread is free for this input, in arrival order. */
  private threadFree(): Promise<void> {
    if (this.active < this.threads) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  /** The thread of an input that ended goes to the oldest input waiting, if any. */
  private handOn(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.active--;
  }

  /**
   * The stream is read once its thread is free: its first bytes, then the task, all within the
   * budget (a download that never starts is stopped by it too).
   */
  private async runStream(
    job: EngineJob,
    chunks: AsyncIterable<Uint8Array>,
    deadline: AbortSignal,
    task: EngineTask = taskOf(job),
  ): Promise<EngineReply> {
    const { port1, port2 } = new MessageChannel();
    const sender = new ChunkSender(chunks, port1, job.onRead);
    try {
      await untilAborted(sender.opened, deadline, this.budgetMs);
      const reply = await this.runTask({ ...task, port: port2 }, deadline, [port2]);
      // A failed download also ends the thread's read; its own error says more than the thread's echo.
      if (sender.failure) throw sender.failure.error;
      return reply;
    } finally {
      sender.stop();
    }
  }

  /** Runs a task on a thread, stopped when `deadline` passes. */
  private async runTask(
    task: EngineTask,
    deadline: AbortSignal,
    transferList: MessagePort[] = [],
  ): Promise<EngineReply> {
    try {
      return (await this.pool.run(task, { signal: deadline, transferList })) as EngineReply;
    } catch (error) {
      if (deadline.aborted) throw new EngineTimeoutError(this.budgetMs);
      throw error;
    }
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

/** `promise`, or an EngineTimeoutError once `deadline` passes first. */
function untilAborted(promise: Promise<void>, deadline: AbortSignal, budgetMs: number): Promise<void> {
  if (deadline.aborted) return Promise.reject(new EngineTimeoutError(budgetMs));
  return new Promise((resolve, reject) => {
    const stop = () => reject(new EngineTimeoutError(budgetMs));
    deadline.addEventListener('abort', stop, { once: true });
    promise.then(resolve, reject).finally(() => deadline.removeEventListener('abort', stop));
  });
}
