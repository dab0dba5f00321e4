import type { MessageFamily } from './types.ts';

/** Where each engine and platform marker comes from, with lines that show it. */
export const ENGINE_MARKER_FAMILIES: readonly MessageFamily[] = [
  {
    name: 'AWS Glue: its classes, paths, worker types and job wording',
    kind: 'engine.glue',
    source:
      'awsdocs/aws-glue-developer-guide (monitor-profile-debug-oom-abnormalities.md, glue-troubleshooting-errors.md); awsglue Python library (GlueContext, DynamicFrame)',
    versions: 'Glue 0.9-5.0',
    examples: [
      'File "/tmp/glue_job.py", line 12, in <module> glueContext = GlueContext(SparkContext.getOrCreate())',
      '23/05/02 10:11:12 INFO GlueContext: GlueMetrics configured and enabled',
      'Worker type: G.1X, Number of workers: 10',
      '2023-04-12 09:10:11,123 ERROR [main] glue.ProcessLauncher (Logging.scala:logError(91)): Original failureReason: ServerSelectionTimeoutError',
    ],
  },
  {
    name: 'Spark: packages, classes, settings and its log wording',
    kind: 'engine.spark',
    source:
      'apache/spark core/src/main/scala/org/apache/spark (executor/Executor.scala "Exception in task %s in stage %s (TID %d)", executor/CoarseGrainedExecutorBackend.scala, scheduler/TaskSetManager.scala, scheduler/TaskSchedulerImpl.scala "Lost executor %s on %s: %s"); resource-managers/yarn/.../ApplicationMaster.scala ("Final app status: %s, exitCode: %d", "User class threw exception: "); resource-managers/yarn/.../YarnSparkHadoopUtil.scala (-XX:OnOutOfMemoryError=\'kill %p\'); py4j as bundled with PySpark',
    versions: 'Spark 1.x-4.x',
    examples: [
      '22/08/15 10:03:44 ERROR Executor: Exception in task 69.0 in stage 95.0 (TID 916)',
      '19/03/11 14:02:07 INFO CoarseGrainedExecutorBackend: Started daemon with process name: 12345@worker-3',
      "exec /usr/lib/jvm/java/bin/java -server -Xmx4096m '-XX:OnOutOfMemoryError=kill %p' -Djava.io.tmpdir=/tmp",
      'org.apache.spark.SparkException: Job aborted due to stage failure',
      'py4j.protocol.Py4JNetworkError: Answer from Java side is empty',
      '23/02/27 13:45:19 WARN YarnAllocator: Container from a bad node: container_1677400112233_0042_01_000017',
      '23/01/26 05:37:07 ERROR TaskSchedulerImpl: Lost executor 13 on 100.86.155.194:',
      'The executor with id 13 exited with exit code 137(SIGKILL, possible container OOM).',
      'The API gave the following container statuses:',
      'ERROR YarnScheduler: Lost executor 7 on ip-10-0-0-7.eu-west-1.compute.internal: Container killed on request. Exit code is 137',
      '20/05/05 10:00:00 INFO ApplicationMaster: Final app status: FAILED, exitCode: 15, (reason: User class threw exception: java.lang.OutOfMemoryError: Java heap space',
    ],
  },
  {
    name: "Databricks: a notebook's Python process (the Spark driver's REPL) died",
    kind: 'engine.spark',
    source:
      'Databricks notebook error banner ("Fatal error: The Python kernel is unresponsive."), as quoted in public issues',
    versions: 'Databricks Runtime',
    examples: [
      'Fatal error: The Python kernel is unresponsive. The Python process exited with exit code 137 (SIGKILL: Killed). This may have been caused by an OOM error.',
    ],
  },
  {
    name: 'Flink: packages, classes, settings, docker compose service names',
    kind: 'engine.flink',
    source:
      'apache/flink (org.apache.flink packages, TaskManagerRunner, TaskExecutor); flink-docs docker deployment (docker compose services jobmanager/taskmanager)',
    versions: 'Flink 1.x-2.x',
    examples: [
      'org.apache.flink.runtime.taskexecutor.TaskExecutor - Close ResourceManager connection',
      'taskmanager_1  | Killed',
      'flink_taskmanager_1 exited with code 137',
      'flink-taskmanager-1 exited with code 137',
      'taskmanager.memory.process.size: 4096m',
    ],
  },
  {
    name: 'Beam Python: its modules, SDK workers and runner options',
    kind: 'engine.beam-python',
    source:
      'apache/beam sdks/python/apache_beam (runners/worker/sdk_worker.py, sdk_worker_main.py, runners/direct)',
    versions: 'Beam 2.x',
    examples: [
      'File "/usr/local/lib/python3.9/site-packages/apache_beam/runners/worker/sdk_worker.py", line 267, in _execute',
      'Data channel closed, unable to receive additional data from SDK sdk-0-0',
    ],
  },
  {
    name: 'Beam Java and the Dataflow Java SDK/worker',
    kind: 'engine.beam-java',
    source:
      'apache/beam (org.apache.beam packages); GoogleCloudPlatform/DataflowJavaSDK (com.google.cloud.dataflow.sdk)',
    versions: 'Beam 2.x; Dataflow Java SDK 1.x',
    examples: [
      '\tat org.apache.beam.runners.dataflow.worker.StreamingDataflowWorker.process(StreamingDataflowWorker.java:1227)',
      '\tat com.google.cloud.dataflow.sdk.util.DoFnRunnerBase.processElement(DoFnRunnerBase.java:139)',
    ],
  },
  {
    name: 'MapReduce',
    kind: 'engine.mapreduce',
    source:
      'apache/hadoop hadoop-mapreduce-project (MRAppMaster, org.apache.hadoop.mapred, mapreduce.*.memory.mb)',
    versions: 'Hadoop 2.x-3.x',
    examples: [
      '2019-04-01 10:00:00,123 INFO [main] org.apache.hadoop.mapreduce.v2.app.MRAppMaster: Created MRAppMaster',
    ],
  },
  {
    name: 'a Python traceback',
    kind: 'runtime.python',
    source: 'python/cpython Lib/traceback.py',
    versions: 'Python 2.7-3.13',
    examples: ['Traceback (most recent call last):', '  File "job.py", line 12, in <module>'],
  },
  {
    name: 'a JVM stack trace',
    kind: 'runtime.jvm',
    source: 'openjdk/jdk java.lang.Throwable.printStackTrace (StackTraceElement.toString)',
    versions: 'JDK 6-21+',
    examples: ['\tat java.util.Arrays.copyOf(Arrays.java:3332)', 'java.lang.IllegalStateException: closed'],
  },
  {
    name: 'YARN: container and application ids, its daemons',
    kind: 'platform.yarn',
    source:
      'apache/hadoop ContainerId.toString (container_[e<epoch>_]<ts>_<app>_<attempt>_<id>), ApplicationId',
    versions: 'Hadoop 2.x-3.x',
    examples: [
      'Container container_e12_1571234567890_0012_01_000004 on host: h1',
      'application_1571234567890_0012',
    ],
  },
  {
    name: 'Kubernetes: its tools, pods and kill reasons',
    kind: 'platform.kubernetes',
    source: 'kubernetes/kubernetes (kubectl describe, kubelet events, OOMKilled termination reason)',
    versions: 'Kubernetes 1.x',
    examples: [
      '      Reason:       OOMKilled',
      '  Warning  Evicted  3m  kubelet  The node was low on resource: memory.',
    ],
  },
  {
    name: 'Amazon EMR: its paths and host names',
    kind: 'platform.emr',
    source: 'docs.aws.amazon.com/emr (YARN local dirs under /mnt/yarn, EC2 internal host names)',
    versions: 'EMR 5.x-7.x',
    examples: [
      'Lost executor 4 on ip-10-0-1-17.eu-west-1.compute.internal: Container killed by YARN',
      'at /mnt/yarn/usercache/hadoop/appcache',
    ],
  },
  {
    name: 'Databricks',
    kind: 'platform.databricks',
    source: 'docs.databricks.com (com.databricks packages, Databricks Runtime versions)',
    versions: 'Databricks Runtime',
    examples: [
      '\tat com.databricks.backend.daemon.driver.DriverLocal.execute(DriverLocal.scala:431)',
      'Fatal error: The Python kernel is unresponsive.',
    ],
  },
  {
    name: 'Google Cloud Dataflow',
    kind: 'platform.dataflow',
    source:
      'cloud.google.com/dataflow/docs/guides/common-errors ("A work item has failed 4 times"); apache/beam DataflowRunner',
    versions: 'Dataflow',
    examples: [
      'The job failed because a work item has failed 4 times. Look in previous log entries for the cause of each one of the 4 failures.',
    ],
  },
];
