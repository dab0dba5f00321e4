import type { Derivation } from './types.ts';

/** Glue worker types in order of memory per worker, as AWS documents them. */
const WORKERS = ['G.025X', 'G.1X', 'G.2X', 'G.4X', 'G.8X'] as const;

/** The Glue worker type seen in the input and the next larger one. */
export const glueWorker: Derivation = (book): Record<string, string> => {
  const raw = book.config('glue.workerType')?.values?.value ?? book.config('glue.worker-type')?.values?.value;
  const current =
    typeof raw === 'string' ? WORKERS.find((w) => w.toLowerCase() === raw.toLowerCase()) : undefined;
  if (!current) return {};
  const next = WORKERS[WORKERS.indexOf(current) + 1];
  return next ? { 'glue.worker': current, 'glue.worker.next': next } : { 'glue.worker': current };
};
