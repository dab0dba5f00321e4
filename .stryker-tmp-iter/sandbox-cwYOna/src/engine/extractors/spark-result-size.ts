// @ts-nocheck
import type { FactValue } from '../facts.ts';
import { parseSize } from '../units.ts';
import { applyRules, type LineRule } from './rules.ts';
import type { Extractor } from './types.ts';

/** From this many tasks on, per-task results alone can fill the driver's result budget. */
const MANY_TASKS = 10_000;
// Bounded and anchored so a long run of digits cannot make the match quadratic.
const SIZE = String.raw`(?<![\d.])(\d{1,15}(?:\.\d{1,6})?\s?[KMGT]i?B)`;

function figures(match: RegExpExecArray): Record<string, FactValue> {
  const values: Record<string, FactValue> = {};
  if (match[1]) values.tasks = Number(match[1]);
  const result = parseSize(match[2] ?? '');
  const limit = parseSize(match[3] ?? '');
  if (result !== undefined) values.resultBytes = result;
  if (limit !== undefined) values.limitBytes = limit;
  return values;
}

const RULES: readonly LineRule[] = [
  {
    re: new RegExp(
      String.raw`Total size of serialized results of (\d+) tasks \(${SIZE}\) is bigger than (?:spark\.driver\.)?maxResultSize \(?${SIZE}`,
      'i',
    ),
    kind: 'spark.max-result-size',
    values: figures,
  },
  // Wording of older/other versions and of task-side kills: "result size has exceeded maxResultSize".
  {
    re: /(?:result size|results?) (?:has |have )?exceeded maxResultSize|bigger than spark\.driver\.maxResultSize/i,
    kind: 'spark.max-result-size',
  },
];

/** Spark's driver result-size limit (spark.driver.maxResultSize), not the RPC message size limit. */
export const sparkResultSize: Extractor = {
  id: 'spark-result-size',
  description: 'Results of a stage bigger than spark.driver.maxResultSize, with the task count and sizes',
  triggers: ['maxresultsize'],
  extract(line) {
    const findings = applyRules(RULES, line);
    const tasks = findings[0]?.values?.tasks;
    // Every task returns a status and its metrics to the driver; summed over tens of thousands of
    // tasks that alone can pass the limit, without any collect() in the code.
    if (typeof tasks === 'number' && tasks >= MANY_TASKS)
      findings.push({ kind: 'spark.many-tasks', values: { tasks } });
    return findings;
  },
};
