import { setPriority } from 'node:os';
import { isMainThread, workerData } from 'node:worker_threads';
import type { HeapDiagnosis } from '../diagnosis/heap-dump.ts';
import { diagnoseHeapDumpFile, type HeapDumpJob } from '../diagnosis/heap-dump-file.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { asMemdoctorError } from '../errors.ts';
import { DIAGNOSIS_NICE } from './engine-worker.ts';

// As the diagnosis threads: the event loop that acknowledges Slack gets the CPU first.
if (!isMainThread)
  try {
    setPriority(0, DIAGNOSIS_NICE);
  } catch {
    // Not permitted here: normal priority is still correct.
  }

/** The analysis, or the error it threw as plain data (classes do not cross threads). */
export type HeapReply = { ok: true; result: HeapDiagnosis } | { ok: false; code: string; message: string };

const playbooks = (): Playbook[] => (workerData as { playbooks: Playbook[] }).playbooks;

/** Runs in the heap thread (heap-pool.ts): one dump file, read twice from disk, within its budget. */
export default async function runHeapTask(job: HeapDumpJob): Promise<HeapReply> {
  try {
    return { ok: true, result: await diagnoseHeapDumpFile(job, playbooks()) };
  } catch (error) {
    const failure = asMemdoctorError(error);
    return { ok: false, code: failure.code, message: failure.message };
  }
}
