import { applyRules, type LineRule, triggersOf } from './rules.ts';
import { SPARK_EXECUTOR_LOSS_FAMILIES } from './spark-executor-loss-families.ts';
import type { Extractor } from './types.ts';

export const RULES: readonly LineRule[] = [
  {
    re: /Executor lost for unknown reasons|exited for unknown reasons/i,
    kind: 'spark.executor-lost-unknown',
    triggers: ['for unknown reasons'],
  },
  // A task brought its executor down and YARN ended the container with SIGTERM/SIGKILL: on YARN
  // that is how a memory kill looks when the "exceeding memory limits" line was not pasted.
  {
    re: /exited caused by one of the running tasks\).{0,300}Exit (?:status|code)(?: is)?:? ?(?:143|137)\b/i,
    kind: 'spark.executor-killed-by-task',
    triggers: ['exited caused by one of the running tasks'],
  },
  // Spark's own guess when an executor's RPC client vanished: "Likely due to containers exceeding thresholds".
  {
    re: /containers exceeding thresholds/i,
    kind: 'spark.executor-lost-thresholds',
    triggers: ['containers exceeding thresholds'],
  },
  {
    re: /Executor heartbeat timed out|no recent heartbeats/i,
    kind: 'spark.heartbeat-timeout',
    triggers: ['executor heartbeat timed out', 'no recent heartbeats'],
  },
  // Databricks' words for a driver JVM that died or froze; memory is by far the most common reason.
  {
    re: /spark driver has stopped unexpectedly|Driver is up but is not responsive, likely due to GC/i,
    kind: 'spark.driver-unresponsive',
    triggers: ['spark driver has stopped unexpectedly', 'driver is up but is not responsive'],
  },
  {
    re: /ExecutorLostFailure|Lost executor \d+|Executor lost:/,
    kind: 'spark.executor-lost',
    triggers: ['executorlostfailure', 'lost executor', 'executor lost:'],
  },
  {
    re: /(?:boost(?:ing)?|increas(?:e|ing)|rais(?:e|ing)) spark\.(?:yarn\.)?executor\.memoryOverhead/i,
    kind: 'spark.overhead-advice',
    triggers: ['memoryoverhead'],
  },
  // A worker that died is weak evidence: a memory kill, but also a segfault or a broken environment.
  {
    re: /Python worker exited unexpectedly \(crashed\)/i,
    kind: 'spark.python-worker-crashed',
    triggers: ['python worker exited unexpectedly (crashed)'],
  },
  // py4j's words when PySpark's driver JVM went away under it (most often it died of memory).
  {
    re: /Py4J(?:Network)?Error: (?:Answer from Java side is empty|Error while (?:sending or )?receiving)|An error occurred while trying to connect to the Java server|^\s*Answer from Java side is empty\s*$/i,
    kind: 'spark.driver-jvm-lost',
    triggers: [
      'answer from java side is empty',
      'py4jerror: error while',
      'py4jnetworkerror: error while',
      'connect to the java server',
    ],
  },
  {
    re: /Python worker exited unexpectedly|PythonException|pyspark\.daemon|spark\.executor\.pyspark\.memory/i,
    kind: 'spark.python-worker',
    triggers: [
      'python worker exited unexpectedly',
      'pythonexception',
      'pyspark.daemon',
      'spark.executor.pyspark.memory',
    ],
  },
];

const { triggers, triggerKinds } = triggersOf(RULES);

/** How Spark reports a lost executor, and the hints it adds about memory overhead and Python workers. */
export const sparkExecutorLoss: Extractor = {
  id: 'spark-executor-loss',
  description:
    'Lost executors (ExecutorLostFailure, unknown reasons, heartbeat timeouts), overhead advice, PySpark workers',
  triggers,
  triggerKinds,
  extract: (line) => {
    // One line may both lose an executor and name the overhead setting: report every rule that matches.
    const findings = [];
    for (const rule of RULES) findings.push(...applyRules([rule], line));
    return findings;
  },
  families: SPARK_EXECUTOR_LOSS_FAMILIES,
  patterns: RULES.map((rule) => rule.re),
};
