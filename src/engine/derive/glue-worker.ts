import { findWorkerType, GLUE_WORKER_TYPES } from '../calculators/glue.ts';
import type { Derivation } from './types.ts';

/** The general-purpose (G.*) worker types, smallest memory first: the usual path up. */
const G_WORKERS = GLUE_WORKER_TYPES.filter((w) => w.type.startsWith('G.')).sort(
  (a, b) => a.memoryGB - b.memoryGB,
);

/** The Glue worker type seen in the input and the next larger general-purpose one. */
export const glueWorker: Derivation = (book): Record<string, string> => {
  const raw = book.config('glue.workerType')?.values?.value ?? book.config('glue.worker-type')?.values?.value;
  const current = typeof raw === 'string' ? findWorkerType(raw) : undefined;
  if (!current) return {};
  const next = G_WORKERS.find((w) => w.memoryGB > current.memoryGB);
  return next
    ? { 'glue.worker': current.type, 'glue.worker.next': next.type }
    : { 'glue.worker': current.type };
};
