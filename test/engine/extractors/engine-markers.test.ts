import { describe, expect, it } from 'vitest';
import { engineMarkers } from '../../../src/engine/extractors/engine-markers.ts';
import { kindsOf } from './run-extractor.ts';

describe('engine-markers', () => {
  it.each([
    [
      'at com.amazonaws.services.glue.util.GlueExceptionAnalysisListener.onJobEnd(Unknown Source)',
      ['engine.glue'],
    ],
    ['INFO GlueContext: Glue secret manager integration: secretId is not provided.', ['engine.glue']],
    ['Worker type: G.2X, number of workers: 10', ['engine.glue']],
    ['File "/tmp/glue_user/job.py", line 3', ['engine.glue', 'runtime.python']],
    ['org.apache.spark.SparkException: Job aborted due to stage failure', ['engine.spark']],
    ['25/01/01 10:00:00 INFO DAGScheduler: Job 3 finished: count at Main.scala:12', ['engine.spark']],
    ['--conf spark.executor.memory=8g', ['engine.spark']],
    [
      'at org.apache.flink.runtime.taskexecutor.TaskExecutor.run(TaskExecutor.java:120)',
      ['engine.flink', 'runtime.jvm'],
    ],
    ['2024-01-01 INFO  My Flink job started', ['engine.flink']],
    [
      'File "/usr/local/lib/python3.8/site-packages/apache_beam/runners/worker/sdk_worker.py", line 267, in _execute',
      ['engine.beam-python', 'runtime.python'],
    ],
    ['Traceback (most recent call last):', ['runtime.python']],
    ['java.lang.OutOfMemoryError: Java heap space', ['runtime.jvm']],
    ['at java.util.HashMap.resize(HashMap.java:704)', ['runtime.jvm']],
    ['Diagnostics: container_1559725928_0001_01_000002 failed', ['platform.yarn']],
    ['application_1464268669092_0001 finished', ['platform.yarn']],
    ['Last State: Terminated Reason: OOMKilled', ['platform.kubernetes']],
    ['Lost task 3.3 (TID 7243, ip-172-31-3-156.us-west-2.compute.internal, executor 5)', ['platform.emr']],
    ['Databricks Runtime 13.3 LTS', ['engine.spark', 'platform.databricks']],
    ['org.apache.hadoop.mapred.YarnChild: Error running child', ['engine.mapreduce', 'platform.yarn']],
    ['at org.apache.beam.sdk.io.FileIO$Write.expand(FileIO.java:1300)', ['engine.beam-java', 'runtime.jvm']],
    ['Workflow failed. Causes: A work item was attempted 4 times without success.', ['platform.dataflow']],
    // Spark known from its log lines and classes alone (Executor.scala, CoarseGrainedExecutorBackend,
    // YarnSparkHadoopUtil's OOM hook, py4j as PySpark ships it).
    ['24/02/02 10:00:00 ERROR Executor: Exception in task 69.0 in stage 95.0 (TID 916)', ['engine.spark']],
    ['INFO CoarseGrainedExecutorBackend: Driver commanded a shutdown', ['engine.spark']],
    ["exec java -server -Xmx4096m '-XX:OnOutOfMemoryError=kill %p' -Djava.io.tmpdir=/tmp", ['engine.spark']],
    ['py4j.protocol.Py4JNetworkError: Answer from Java side is empty', ['engine.spark']],
    [
      'WARN YarnAllocator: Container from a bad node: container_1677400112233_0042_01_000017',
      ['engine.spark', 'platform.yarn'],
    ],
    ['flink_taskmanager_1 exited with code 137', ['engine.flink']],
    [
      'ERROR TaskSchedulerImpl: Lost executor 7 on h7: Container killed on request. Exit code is 137',
      ['engine.spark'],
    ],
    [
      'INFO ApplicationMaster: Final app status: FAILED, exitCode: 15, (reason: User class threw exception: java.lang.OutOfMemoryError: Java heap space',
      ['engine.spark', 'runtime.jvm'],
    ],
    ['flink-taskmanager-1 exited with code 137', ['engine.flink']],
    ['taskmanager_1 exited with code 137', ['engine.flink']],
    [
      '\tat com.google.cloud.dataflow.sdk.util.DoFnRunnerBase.processElement(DoFnRunnerBase.java:139)',
      ['engine.beam-java', 'runtime.jvm', 'platform.dataflow'],
    ],
    ['  Warning  Evicted  3m  kubelet  The node was low on resource: memory.', ['platform.kubernetes']],
  ])('%s -> %j', (line, kinds) => {
    expect(kindsOf(engineMarkers, line)).toEqual(kinds);
  });

  it.each([
    'we need some glue code between the services',
    'beamforming antenna calibration done',
    'Emerald city',
    'Executor lost something',
    'INFO Checkpointing completed in 12 ms',
    // A plain JVM with the common kill -9 hook is not Spark; only Spark's own 'kill %p' counts.
    'java -XX:OnOutOfMemoryError="kill -9 %p" -jar service.jar',
    'resourcemanager-0 exited with code 137',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(engineMarkers, line)).toEqual([]);
  });

  it('does not mark a Beam Java runner class as Beam Python', () => {
    expect(
      kindsOf(engineMarkers, 'at org.apache.beam.runners.dataflow.worker.StreamingDataflowWorker.process'),
    ).not.toContain('engine.beam-python');
  });
});
