import { describe, expect, it } from 'vitest';
import { sparkExecutorLoss } from '../../../src/engine/extractors/spark-executor-loss.ts';
import { kindsOf } from './run-extractor.ts';

describe('spark-executor-loss', () => {
  it.each([
    [
      'ExecutorLostFailure (executor 38 exited caused by one of the running tasks) Reason: Container killed by YARN for exceeding memory limits. 5.5 GB of 5.5 GB physical memory used. Consider boosting spark.yarn.executor.memoryOverhead.',
      ['spark.executor-lost', 'spark.overhead-advice'],
    ],
    [
      '17/09/13 17:15:43 WARN scheduler.TaskSetManager: Lost task 0.0 in stage 7.0 (TID 75, spark1): ExecutorLostFailure (executor 6 exited caused by one of the running tasks) Reason: Executor heartbeat timed out after 178850 ms',
      ['spark.heartbeat-timeout', 'spark.executor-lost'],
    ],
    [
      'ERROR YarnScheduler: Lost executor 3 on ip-10-0-0-1.ec2.internal: Executor lost for unknown reasons.',
      ['spark.executor-lost-unknown', 'spark.executor-lost'],
    ],
    [
      'WARN HeartbeatReceiver: Removing executor 2 with no recent heartbeats: 160000 ms exceeds timeout 120000 ms',
      ['spark.heartbeat-timeout'],
    ],
    [
      'org.apache.spark.SparkException: Python worker exited unexpectedly (crashed)',
      ['spark.python-worker-crashed', 'spark.python-worker'],
    ],
    // py4j when PySpark's driver JVM went away (weak: the walkthrough asks why).
    ['py4j.protocol.Py4JNetworkError: Answer from Java side is empty', ['spark.driver-jvm-lost']],
    [
      'py4j.protocol.Py4JNetworkError: An error occurred while trying to connect to the Java server (127.0.0.1:40415)',
      ['spark.driver-jvm-lost'],
    ],
    [
      'org.apache.spark.api.python.PythonException: Traceback (most recent call last):',
      ['spark.python-worker'],
    ],
    [
      'WARN YarnAllocator: Container killed by YARN for exceeding memory limits. 11.0 GB of 11 GB physical memory used. Consider boosting spark.executor.memoryOverhead.',
      ['spark.overhead-advice'],
    ],
    [
      'ERROR TaskSchedulerImpl: Lost executor 3 on 10.0.1.7: Remote RPC client disassociated. Likely due to containers exceeding thresholds, or network issues.',
      ['spark.executor-lost-thresholds', 'spark.executor-lost'],
    ],
    [
      'The spark driver has stopped unexpectedly and is restarting. Your notebook will be automatically reattached.',
      ['spark.driver-unresponsive'],
    ],
    [
      'WARN TaskSetManager: Lost task 3.0 in stage 5.0 (TID 91, ip-10-0-0-5.ec2.internal, executor 2): ExecutorLostFailure (executor 2 exited caused by one of the running tasks) Reason: Container marked as failed: container_1700000000000_0001_01_000003 on host: ip-10-0-0-5.ec2.internal. Exit status: 143. Diagnostics: Container killed on request. Exit code is 143',
      ['spark.executor-killed-by-task', 'spark.executor-lost'],
    ],
    [
      'ExecutorLostFailure (executor 9 exited unrelated to the running tasks) Reason: Container marked as failed: container_1 on host: h. Exit status: 143.',
      ['spark.executor-lost'],
    ],
  ])('%s', (line, kinds) => {
    expect(kindsOf(sparkExecutorLoss, line)).toEqual(kinds);
  });

  it.each([
    'INFO Executor: Running task 0.0 in stage 1.0 (TID 1)',
    'INFO ExecutorAllocationManager: Requesting 2 new executors because tasks are backlogged',
    '--conf spark.executor.memory=4g',
    'INFO Executor: Finished task 3.0 in stage 2.0 (TID 9). 1520 bytes result sent to driver',
    'py4j.protocol.Py4JError: An error occurred while calling None.org.apache.spark.api.java.JavaSparkContext',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(sparkExecutorLoss, line)).toEqual([]);
  });

  it('does not read a setting of the overhead as advice to raise it', () => {
    expect(kindsOf(sparkExecutorLoss, '--conf spark.executor.memoryOverhead=2g')).toEqual([]);
  });
});
