import { formatSetting, formatSize, GiB, roundUp } from '../units.ts';
import { numberValue } from './settings.ts';
import type { Derivation } from './types.ts';

/**
 * The result-size figures, a limit with 50% headroom, and the driver heap to go with it: three times
 * the results, so they fill at most a third of it (the walkthrough's rule), as the driver holds the
 * serialized bytes and then the rows built from them. Both rounded up to a whole GiB.
 */
export const resultSize: Derivation = (book) => {
  const values: Record<string, string> = {};
  const result = numberValue(book, 'spark.max-result-size', 'resultBytes');
  const limit = numberValue(book, 'spark.max-result-size', 'limitBytes');
  const tasks = numberValue(book, 'spark.max-result-size', 'tasks');
  if (result !== undefined) values['result.size'] = formatSize(result);
  if (limit !== undefined) values['result.limit'] = formatSize(limit);
  if (tasks !== undefined) values['result.tasks'] = String(tasks);
  if (result !== undefined && tasks !== undefined && tasks > 0)
    values['result.per-task'] = formatSize(result / tasks);
  if (result !== undefined) values['result.suggested-limit'] = formatSetting(roundUp(result * 1.5, GiB));
  if (result !== undefined) values['driver.suggested-memory'] = formatSetting(roundUp(result * 3, GiB));
  return values;
};
