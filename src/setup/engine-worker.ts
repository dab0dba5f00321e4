import { setPriority } from 'node:os';
import { isMainThread, type MessagePort, workerData } from 'node:worker_threads';
import type { EngineReply } from '../diagnosis/engine-job.ts';
import { readStoredInput } from '../engine/case/index.ts';
import { diagnoseStream, diagnoseText, type EngineHint } from '../engine/index.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { asMemdoctorError } from '../errors.ts';
import { receiveChunks } from './chunk-stream.ts';

/**
 * Nice 10 for this thread (on Linux a thread has its own nice value; 0 names the calling thread):
 * when the cores are busy, the scheduler gives the event loop that acknowledges Slack the CPU first
 * and the diagnoses what is left. Where the system refuses, the thread runs at normal priority.
 */
export const DIAGNOSIS_NICE = 10;
// Only in a pool thread: a test importing this file must not lower its own priority.
if (!isMainThread)
  try {
    setPriority(0, DIAGNOSIS_NICE);
  } catch {
    // Not permitted here (some containers, other systems): normal priority is still correct.
  }

/** What a pool thread is given (engine-pool.ts): text, or the port a file's bytes come through. */
export interface EngineTask {
  source: string;
  text?: string;
  /** The other end of a ChunkSender (chunk-stream.ts). */
  port?: MessagePort;
  engine?: EngineHint;
  maxBytes?: number;
  /** Read the input into what a case keeps (its keys and facts) instead of diagnosing it. */
  caseInput?: boolean;
}

/** The playbooks, sent once when the pool starts the thread (read on use: tests import this file). */
const playbooks = (): Playbook[] => (workerData as { playbooks: Playbook[] }).playbooks;

async function* nothing(): AsyncGenerator<Uint8Array> {}

/** Runs in a pool thread (engine-pool.ts): the pure engine over one input, nothing else. */
export default async function runTask(task: EngineTask): Promise<EngineReply> {
  const options = {
    ...(task.engine ? { engine: task.engine } : {}),
    ...(task.maxBytes !== undefined ? { maxBytes: task.maxBytes } : {}),
  };
  try {
    if (task.caseInput) {
      const chunks = task.port ? receiveChunks(task.port) : nothing();
      const maxBytes = task.maxBytes ?? Number.POSITIVE_INFINITY;
      return { ok: true, stored: await readStoredInput({ source: task.source, chunks }, maxBytes) };
    }
    const result =
      task.text !== undefined
        ? await diagnoseText(task.source, task.text, playbooks(), options)
        : await diagnoseStream(
            task.source,
            task.port ? receiveChunks(task.port) : nothing(),
            playbooks(),
            options,
          );
    return { ok: true, result };
  } catch (error) {
    const failure = asMemdoctorError(error);
    return { ok: false, code: failure.code, message: failure.message };
  } finally {
    // The engine may stop before the stream's end (binary input, too large): the sender hears it.
    task.port?.close();
  }
}
