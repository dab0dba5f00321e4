import { setPriority } from 'node:os';
import { isMainThread, workerData } from 'node:worker_threads';
import type { EngineJob, EngineReply } from '../diagnosis/engine-job.ts';
import { diagnoseStream, diagnoseText } from '../engine/index.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { asMemdoctorError } from '../errors.ts';

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

/** The playbooks, sent once when the pool starts the thread (read on use: tests import this file). */
const playbooks = (): Playbook[] => (workerData as { playbooks: Playbook[] }).playbooks;

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** Runs in a pool thread (engine-pool.ts): the pure engine over one input, nothing else. */
export default async function runJob(job: EngineJob): Promise<EngineReply> {
  const options = {
    ...(job.engine ? { engine: job.engine } : {}),
    ...(job.maxBytes !== undefined ? { maxBytes: job.maxBytes } : {}),
  };
  try {
    const result =
      job.text !== undefined
        ? await diagnoseText(job.source, job.text, playbooks(), options)
        : await diagnoseStream(job.source, once(job.bytes ?? new Uint8Array()), playbooks(), options);
    return { ok: true, result };
  } catch (error) {
    const failure = asMemdoctorError(error);
    return { ok: false, code: failure.code, message: failure.message };
  }
}
