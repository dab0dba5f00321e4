import { workerData } from 'node:worker_threads';
import type { EngineJob, EngineReply } from '../diagnosis/engine-job.ts';
import { diagnoseStream, diagnoseText } from '../engine/index.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { asMemdoctorError } from '../errors.ts';

/** The playbooks, sent once when the pool starts the thread. */
const playbooks = (workerData as { playbooks: Playbook[] }).playbooks;

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
        ? await diagnoseText(job.source, job.text, playbooks, options)
        : await diagnoseStream(job.source, once(job.bytes ?? new Uint8Array()), playbooks, options);
    return { ok: true, result };
  } catch (error) {
    const failure = asMemdoctorError(error);
    return { ok: false, code: failure.code, message: failure.message };
  }
}
