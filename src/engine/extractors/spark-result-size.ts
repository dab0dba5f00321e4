import type { FactValue } from '../facts.ts';
import { LOG_SIZE, parseSize } from '../units.ts';
import { applyRules, type LineRule } from './rules.ts';
import type { Extractor, MessageFamily } from './types.ts';

/** From this many tasks on, per-task results alone can fill the driver's result budget. */
const MANY_TASKS = 10_000;

function sizes(result?: string, limit?: string): Record<string, FactValue> {
  const values: Record<string, FactValue> = {};
  const resultBytes = parseSize(result ?? '');
  const limitBytes = parseSize(limit ?? '');
  if (resultBytes !== undefined) values.resultBytes = resultBytes;
  if (limitBytes !== undefined) values.limitBytes = limitBytes;
  return values;
}

// Provenance of each rule is in FAMILIES below.
const RULES: readonly LineRule[] = [
  {
    re: new RegExp(
      String.raw`Total size of serialized results(?: of (\d{1,12}) tasks)? \(${LOG_SIZE}\) is bigger than (?:spark\.driver\.)?maxResultSize \(?${LOG_SIZE}`,
      'i',
    ),
    kind: 'spark.max-result-size',
    values: (m) => ({ ...(m[1] ? { tasks: Number(m[1]) } : {}), ...sizes(m[2], m[3]) }),
  },
  {
    re: new RegExp(String.raw`Result is larger than maxResultSize \(${LOG_SIZE} > ${LOG_SIZE}\)`, 'i'),
    kind: 'spark.max-result-size',
    values: (m) => sizes(m[1], m[2]),
  },
  // The same messages with their figures cut off, and older or vendor wordings.
  {
    re: /(?:result size|results?) (?:has |have )?exceeded maxResultSize|(?:bigger|larger) than (?:spark\.driver\.)?maxResultSize|\bexceeds spark\.driver\.maxResultSize/i,
    kind: 'spark.max-result-size',
  },
];

const TASK_SET_MANAGER = 'apache/spark core/src/main/scala/org/apache/spark/scheduler/TaskSetManager.scala';
const EXECUTOR = 'apache/spark core/src/main/scala/org/apache/spark/executor/Executor.scala';

const FAMILIES: readonly MessageFamily[] = [
  {
    name: 'driver: total size of serialized results bigger than spark.driver.maxResultSize',
    kind: 'spark.max-result-size',
    source: `${TASK_SET_MANAGER} (canFetchMoreResults); sizes from core/.../util/Utils.scala (bytesToString)`,
    versions:
      'Spark 1.2-2.x (KB, MB, GB units), Spark 3.0+ (KiB, MiB, GiB units; config key from MAX_RESULT_SIZE)',
    examples: [
      '16/04/17 11:17:36 ERROR scheduler.TaskSetManager: Total size of serialized results of 126 tasks (1137.3 MB) is bigger than spark.driver.maxResultSize (1024.0 MB)',
      'org.apache.spark.SparkException: Job aborted due to stage failure: Total size of serialized results of 42 tasks (2.1 GiB) is bigger than spark.driver.maxResultSize (2.0 GiB)',
      'ERROR TaskSetManager: Total size of serialized results of 1 tasks (1031.4 KiB) is bigger than spark.driver.maxResultSize (1024.0 KiB)',
    ],
  },
  {
    name: 'executor: a task result larger than maxResultSize is dropped',
    kind: 'spark.max-result-size',
    source: `${EXECUTOR} (TaskRunner.run: "Result is larger than maxResultSize (%s > %s), dropping it.")`,
    versions:
      'Spark 1.2-2.x (KB, MB units), Spark 3.0+ (KiB, MiB units; structured logging in 4.0 keeps the text)',
    examples: [
      'WARN  Finished task 4.0 in stage 0.0 (TID 4). Result is larger than maxResultSize (1031.4 KB > 1024.0 KB), dropping it.',
      '23/09/03 14:02:58 WARN Executor: Finished task 17.0 in stage 6.0 (TID 433). Result is larger than maxResultSize (1031.4 KiB > 1024.0 KiB), dropping it.',
      '24/01/09 08:11:02 WARN Executor: Finished task 3.0 in stage 2.0 (TID 9). Result is larger than maxResultSize (2.3 GiB > 2.0 GiB), dropping it.',
    ],
  },
  {
    name: 'the limit named without its figures (cut pastes, vendor wordings)',
    kind: 'spark.max-result-size',
    source: `${TASK_SET_MANAGER}; Azure Synapse / Databricks job errors quoting it ("Total size of serialized results (4.0 GB) is bigger than ...")`,
    versions: 'Spark 1.2+',
    examples: [
      'Job aborted due to stage failure: Total size of serialized results (4.0 GB) is bigger than spark.driver.maxResultSize (4.0 GB)',
      'the result size has exceeded maxResultSize',
      'Job aborted due to stage failure: Total size of serialized results exceeds spark.driver.maxResultSize',
    ],
  },
  {
    name: 'many tasks: per-task status alone fills the driver budget',
    kind: 'spark.many-tasks',
    source: `${TASK_SET_MANAGER} (every finished task sends its result or status to the driver)`,
    versions: 'Spark 1.2+',
    examples: [
      'Total size of serialized results of 24681 tasks (1024.1 MiB) is bigger than spark.driver.maxResultSize (1024.0 MiB)',
    ],
  },
];

/** Spark's driver result-size limit (spark.driver.maxResultSize), not the RPC message size limit. */
export const sparkResultSize: Extractor = {
  id: 'spark-result-size',
  description:
    'Results bigger than spark.driver.maxResultSize (driver total or one task on the executor), with the sizes',
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
  families: FAMILIES,
  patterns: RULES.map((rule) => rule.re),
};
