// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { mergeReceipts, redact } from '../../src/llm/redact.ts';
import { SECRETS } from './secrets.ts';

describe('redact: real-format secrets', () => {
  it.each(SECRETS)('$name', ({ input, kinds, secret }) => {
    const { text, receipt } = redact(input);
    expect(text).not.toContain(secret);
    expect(receipt).toEqual(kinds);
    for (const kind of Object.keys(kinds)) expect(text).toContain(`[REDACTED:${kind}]`);
  });

  it('keeps the key name and the user so the line still reads', () => {
    expect(redact('postgresql://etl_user:S3cr3t@db:5432/dw').text).toBe(
      'postgresql://etl_user:[REDACTED:url-password]@db:5432/dw',
    );
    expect(redact('password=hunter2;').text).toBe('password=[REDACTED:password];');
    expect(redact('Authorization: Bearer abcdefgh12345678').text).toBe(
      'Authorization: Bearer [REDACTED:bearer-token]',
    );
  });

  it('is idempotent: redacting twice changes nothing and counts nothing', () => {
    const once = redact(SECRETS.map((s) => s.input).join('\n'));
    const twice = redact(once.text);
    expect(twice.text).toBe(once.text);
    expect(twice.receipt).toEqual({});
  });
});

const ORDINARY = [
  '\tat org.apache.spark.executor.Executor$TaskRunner.run(Executor.scala:551)',
  '\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)',
  'java.lang.OutOfMemoryError: Java heap space',
  'Container killed by YARN for exceeding memory limits. 10.4 GB of 10 GB physical memory used. Consider boosting spark.yarn.executor.memoryOverhead.',
  'ExecutorLostFailure (executor 7 exited caused by one of the running tasks) Reason: Container from a bad node: container_1692950400000_0042_01_000008 on host: ip-10-0-12-34.ec2.internal. Exit status: 137.',
  '23/08/25 09:14:07 ERROR YarnScheduler: Lost executor 7 on ip-10-0-12-34.ec2.internal',
  '2026-11-29T11:38:33.123Z INFO  TaskSetManager: Finished task 3.0 in stage 12.0 (TID 412) in 5123 ms on 10.0.12.34 (executor 2) (4/200)',
  'Total size of serialized results of 412 tasks (1024.3 MiB) is bigger than spark.driver.maxResultSize (1024.0 MiB)',
  'commit 9fceb02d0ae598e95dc970b74767f19372d61af8 sha256:3b1f9e0c7a5d2f8e4b6a9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f',
  'docker: container 4f66ad9a0b2e1c8d7f6e5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d exited with code 137',
  'akka.tcp://flink@flink-jobmanager.default.svc:6123/user/rpc/resourcemanager_0',
  'org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not acquire the minimum required resources.',
  'Memory: heap used=3.2g committed=4g max=4g; direct 512 MiB; metaspace 256m -Xmx4g -XX:MaxMetaspaceSize=512m',
  'java.lang.Object@1b6d3586 org.apache.spark.SparkContext@3f2a1b9c',
  'Traceback (most recent call last):\n  File "/usr/lib/python3/dist-packages/apache_beam/runners/worker/sdk_worker.py", line 287, in _execute',
  'kubectl describe pod task-runner-7d9f8b6c5-x2x4z  Last State: Terminated  Reason: OOMKilled  Exit Code: 137',
  'Using task-manager-skew-detector-9000 for disk-usage-report',
  'spark.executor.memory=8g spark.memory.fraction=0.6 spark.sql.autoBroadcastJoinThreshold=-1',
  'Invalid token at position 42 in expression',
  'uuid 123e4567-e89b-12d3-a456-426614174000 trace_id=4bf92f3577b34da6a3ce929d0e0e4736',
];

describe('redact: ordinary log lines are left alone', () => {
  it.each(ORDINARY)('%s', (line) => {
    const { text, receipt } = redact(line);
    expect(text).toBe(line);
    expect(receipt).toEqual({});
  });
});

describe('mergeReceipts', () => {
  it('adds counts per kind', () => {
    expect(mergeReceipts({ email: 1 }, { email: 2, jwt: 1 })).toEqual({ email: 3, jwt: 1 });
  });
});
