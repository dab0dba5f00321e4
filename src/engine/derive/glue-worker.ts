import {
  findWorkerType,
  GLUE_WORKER_TYPES,
  type GlueWorkerType,
  glueTypeForContainer,
  glueWorkerBudget,
} from '../calculators/glue.ts';
import type { FactBook } from '../facts.ts';
import { formatSize } from '../units.ts';
import type { Derivation } from './types.ts';

/** The general-purpose (G.*) worker types, smallest memory first: the usual path up. */
const G_WORKERS = GLUE_WORKER_TYPES.filter((w) => w.type.startsWith('G.')).sort(
  (a, b) => a.memoryGB - b.memoryGB,
);

function configuredType(book: FactBook): GlueWorkerType | undefined {
  const raw = book.config('glue.workerType')?.values?.value ?? book.config('glue.worker-type')?.values?.value;
  return typeof raw === 'string' ? findWorkerType(raw) : undefined;
}

/** The worker type a killed executor container's size gives away (5.5 GB: Standard, 11 GB: G.1X). */
function typeFromContainer(book: FactBook): { type: GlueWorkerType; limit: number } | undefined {
  const kill = book.find('container.killed-memory').find((f) => f.values?.resource === 'physical');
  const limit = kill?.values?.limitBytes;
  if (typeof limit !== 'number') return undefined;
  const type = glueTypeForContainer(limit);
  return type ? { type, limit } : undefined;
}

/**
 * The Glue worker type, as configured or as the killed container's size shows it, the next larger
 * general-purpose type, and what the driver gets on it (the driver runs on one worker of the type).
 */
export const glueWorker: Derivation = (book): Record<string, string> => {
  const fromContainer = typeFromContainer(book);
  const current = configuredType(book) ?? fromContainer?.type;
  if (!current) return {};
  const values: Record<string, string> = {
    'glue.worker': current.type,
    'glue.driver.heap': formatSize(glueWorkerBudget(current).driverHeap),
  };
  if (fromContainer && fromContainer.type === current)
    values['glue.worker.evidence'] =
      `a ${formatSize(fromContainer.limit)} executor container is what a ${current.type} worker's ${formatSize(glueWorkerBudget(current).executorHeap)} heap plus Spark's default overhead makes`;
  // By executor heap, not worker memory: a Standard worker's two 5 GB executors step up to G.1X's one of 10 GB.
  const heap = glueWorkerBudget(current).executorHeap;
  const next = G_WORKERS.find((w) => glueWorkerBudget(w).executorHeap > heap);
  if (next) {
    values['glue.worker.next'] = next.type;
    values['glue.driver.heap.next'] = formatSize(glueWorkerBudget(next).driverHeap);
  }
  return values;
};
