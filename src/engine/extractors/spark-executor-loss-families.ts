import type { MessageFamily } from './types.ts';

const SCHEDULER = 'apache/spark core/src/main/scala/org/apache/spark';

/** The message families spark-executor-loss recognises, with the source of each wording. */
export const SPARK_EXECUTOR_LOSS_FAMILIES: readonly MessageFamily[] = [
  {
    name: 'executor lost for unknown reasons (Kubernetes backend)',
    kind: 'spark.executor-lost-unknown',
    source:
      'apache/spark resource-managers/kubernetes/.../KubernetesClusterSchedulerBackend.scala (SlaveLost("Executor lost for unknown reasons."))',
    versions: 'Spark 2.3-2.4 on Kubernetes',
    examples: ['ERROR TaskSchedulerImpl: Lost executor 2 on 10.8.1.5: Executor lost for unknown reasons.'],
  },
  {
    name: 'a task brought its executor down and YARN ended it with SIGTERM/SIGKILL',
    kind: 'spark.executor-killed-by-task',
    source: `${SCHEDULER}/TaskEndReason.scala (ExecutorLostFailure.toErrorString) with resource-managers/yarn/.../YarnAllocator.scala ("Container marked as failed ... Exit status")`,
    versions: 'Spark 2.x-3.x on YARN',
    examples: [
      'ExecutorLostFailure (executor 16 exited caused by one of the running tasks) Reason: Container from a bad node: container_1677400112233_0042_01_000017 on host: worker-09.corp.local. Exit status: 137. Diagnostics: [2023-02-27 13:45:18.902]Container killed on request. Exit code is 137',
      'ExecutorLostFailure (executor 3 exited caused by one of the running tasks) Reason: Container marked as failed: container_1 on host: h1. Exit status: 143. Diagnostics: Container killed on request. Exit code is 143',
    ],
  },
  {
    name: "Spark's guess when an executor's RPC client vanished",
    kind: 'spark.executor-lost-thresholds',
    source: `${SCHEDULER}/scheduler/cluster/CoarseGrainedSchedulerBackend.scala (onDisconnected)`,
    versions: 'Spark 2.x-3.x',
    examples: [
      'ERROR YarnScheduler: Lost executor 5 on host-5: Remote RPC client disassociated. Likely due to containers exceeding thresholds, or network issues. Check driver logs for WARN messages.',
    ],
  },
  {
    name: 'executor heartbeat timed out',
    kind: 'spark.heartbeat-timeout',
    source: `${SCHEDULER}/HeartbeatReceiver.scala (expireDeadHosts)`,
    versions: 'Spark 1.x-4.x',
    examples: [
      'WARN HeartbeatReceiver: Removing executor 4 with no recent heartbeats: 125003 ms exceeds timeout 120000 ms',
      'ExecutorLostFailure (executor 4 exited caused by one of the running tasks) Reason: Executor heartbeat timed out after 125003 ms',
    ],
  },
  {
    name: 'Databricks: the driver stopped or stopped responding',
    kind: 'spark.driver-unresponsive',
    source: 'kb.databricks.com (Spark driver crashed / unresponsive articles), notebook error banners',
    versions: 'Databricks Runtime',
    examples: [
      'The spark driver has stopped unexpectedly and is restarting. Your notebook will be automatically reattached.',
      'Driver is up but is not responsive, likely due to GC.',
    ],
  },
  {
    name: 'an executor lost, whatever the reason',
    kind: 'spark.executor-lost',
    source: `${SCHEDULER}/TaskEndReason.scala (ExecutorLostFailure), scheduler/TaskSchedulerImpl.scala ("Lost executor %s on %s: %s")`,
    versions: 'Spark 1.x-4.x',
    examples: [
      'ERROR YarnScheduler: Lost executor 16 on worker-09.corp.local: Container from a bad node',
      'ExecutorLostFailure (executor 7 exited unrelated to the running tasks) Reason: Container marked as failed: container_1 on host: h1. Exit status: -100. Diagnostics: Container released on a *lost* node.',
    ],
  },
  {
    name: "Spark's own advice to raise the memory overhead",
    kind: 'spark.overhead-advice',
    source: 'apache/spark resource-managers/yarn/.../YarnAllocator.scala (memLimitExceededLogMessage)',
    versions: 'Spark 1.x-2.x (spark.yarn.executor.memoryOverhead), 3.0+ (spark.executor.memoryOverhead)',
    examples: [
      'Consider boosting spark.yarn.executor.memoryOverhead.',
      'Consider boosting spark.executor.memoryOverhead.',
    ],
  },
  {
    name: 'PySpark worker processes',
    kind: 'spark.python-worker',
    source:
      'apache/spark core/src/main/scala/org/apache/spark/api/python/PythonRunner.scala; python/pyspark/daemon.py; docs/configuration.md (spark.executor.pyspark.memory)',
    versions: 'Spark 2.x-4.x',
    examples: [
      'org.apache.spark.api.python.PythonException: Traceback (most recent call last):',
      '--conf spark.executor.pyspark.memory=2g',
    ],
  },
  {
    name: 'a PySpark worker process died (weak: a memory kill, a segfault or a broken environment)',
    kind: 'spark.python-worker-crashed',
    source:
      'apache/spark core/src/main/scala/org/apache/spark/api/python/PythonRunner.scala (ReaderIterator handleEndOfDataSection / EOFException)',
    versions: 'Spark 1.x-4.x',
    examples: [
      'org.apache.spark.SparkException: Python worker exited unexpectedly (crashed)',
      '15/02/24 12:11:56 ERROR PythonRDD: Python worker exited unexpectedly (crashed)',
    ],
  },
  {
    name: 'PySpark lost its driver JVM (weak: the JVM died, most often of memory; its own log says why)',
    kind: 'spark.driver-jvm-lost',
    source: 'py4j/py4j py4j-python/src/py4j/clientserver.py and java_gateway.py (Py4JNetworkError)',
    versions:
      'py4j 0.10.x as bundled with PySpark 2.x-4.x (Py4JError before 0.10.7, Py4JNetworkError after; clientserver.py "Error while sending or receiving")',
    examples: [
      'py4j.protocol.Py4JNetworkError: Answer from Java side is empty',
      'py4j.protocol.Py4JNetworkError: An error occurred while trying to connect to the Java server (127.0.0.1:40415)',
      'ERROR:py4j.java_gateway:An error occurred while trying to connect to the Java server (127.0.0.1:33247)',
      'py4j.protocol.Py4JError: Answer from Java side is empty',
      'py4j.protocol.Py4JNetworkError: Error while sending or receiving',
      'py4j.protocol.Py4JNetworkError: Error while receiving',
    ],
  },
];
