import { formatSetting, GiB, roundUp } from '../units.ts';
import { sizeSetting } from './settings.ts';
import type { Derivation } from './types.ts';

/**
 * The heap sizes seen in the input and a next step up: 1.5x, rounded to a whole GiB. Half again is
 * enough to tell a too-small heap (the job then passes) from a leak (it fails later, at a higher floor).
 */
export const heapSize: Derivation = (book) => {
  const values: Record<string, string> = {};
  const sizes: Array<[string, string[]]> = [
    ['executor', ['spark.executor.memory']],
    ['driver', ['spark.driver.memory']],
    ['jvm', ['jvm.Xmx']],
    ['taskmanager', ['taskmanager.memory.process.size', 'taskmanager.memory.flink.size']],
    ['taskheap', ['taskmanager.memory.task.heap.size']],
  ];
  for (const [name, keys] of sizes) {
    const bytes = sizeSetting(book, keys);
    if (bytes === undefined) continue;
    values[`heap.${name}`] = formatSetting(bytes);
    values[`heap.${name}.suggested`] = formatSetting(roundUp(bytes * 1.5, GiB));
  }
  return values;
};
