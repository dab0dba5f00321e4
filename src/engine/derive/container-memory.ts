import { SPARK_MIN_OVERHEAD } from '../calculators/spark.ts';
import type { FactBook } from '../facts.ts';
import { formatSetting, formatSize, GiB, MiB, roundUp } from '../units.ts';
import { sizeSetting } from './settings.ts';
import type { Derivation } from './types.ts';

/**
 * The container's figures and a new memory overhead. Spark sizes a YARN/K8s executor container as heap +
 * overhead, overhead defaulting to max(384 MB, 10% of heap); we give the overhead what the container
 * overshot plus 5% of the limit as headroom, and never less than 1.5x what it had.
 */
export const containerMemory: Derivation = (book) => {
  const values: Record<string, string> = {};
  const { used, limit } = physicalKill(book);
  if (used !== undefined) values['container.used'] = formatSize(used);
  if (limit !== undefined) values['container.limit'] = formatSize(limit);
  const heap = sizeSetting(book, ['spark.executor.memory']);
  if (heap !== undefined) values['executor.memory'] = formatSetting(heap);
  const explicit = sizeSetting(book, ['spark.executor.memoryOverhead', 'spark.yarn.executor.memoryOverhead']);
  const current = explicit ?? currentOverhead(heap, limit);
  if (current === undefined) return values;
  values['overhead.current'] = formatSetting(current);
  const overshoot = used !== undefined && limit !== undefined ? Math.max(0, used - limit) : 0;
  const headroom = limit !== undefined ? 0.05 * limit : current * 0.5;
  const wanted = Math.max(current * 1.5, current + overshoot + headroom);
  // Settings people type are whole gibibytes once they are that large; halves below.
  values['overhead.suggested'] = formatSetting(roundUp(wanted, wanted > GiB ? GiB : 512 * MiB));
  return values;
};

/**
 * The figures of the first container killed for physical memory. A virtual-memory kill's figures are
 * address space, not what the overhead must hold (yarn-vmem.ts reads those).
 */
function physicalKill(book: FactBook): { used?: number; limit?: number } {
  const values = book.find('container.killed-memory').find((f) => f.values?.resource !== 'virtual')?.values;
  const number = (v: unknown) => (typeof v === 'number' ? v : undefined);
  return { used: number(values?.usedBytes), limit: number(values?.limitBytes) };
}

function currentOverhead(heap: number | undefined, limit: number | undefined): number | undefined {
  if (heap !== undefined && limit !== undefined && limit > heap) return limit - heap;
  if (heap !== undefined) return Math.max(SPARK_MIN_OVERHEAD, 0.1 * heap);
  // Only the container limit is known: with the default factor, limit = heap * 1.1.
  if (limit !== undefined) return Math.max(SPARK_MIN_OVERHEAD, limit / 11);
  return undefined;
}
