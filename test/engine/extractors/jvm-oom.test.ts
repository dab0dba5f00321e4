import { describe, expect, it } from 'vitest';
import { jvmOom } from '../../../src/engine/extractors/jvm-oom.ts';
import { findingsOf, kindsOf } from './run-extractor.ts';

describe('jvm-oom', () => {
  it.each([
    ['java.lang.OutOfMemoryError: Java heap space', 'oom.java-heap'],
    [
      '19/03/26 14:09:22 SPARK:WARN TaskSetManager: Lost task 0.0 in stage 8.0 (TID 12, 192.168.56.198, executor 1): java.lang.OutOfMemoryError: Java heap space',
      'oom.java-heap',
    ],
    ['# java.lang.OutOfMemoryError: Java heap space', 'oom.java-heap'],
    ['flink-jobmanager-1     | java.lang.OutOfMemoryError: Java heap space', 'oom.java-heap'],
    ['Caused by: java.lang.OutOfMemoryError: GC overhead limit exceeded', 'oom.gc-overhead'],
    [
      "java.lang.OutOfMemoryError: Metaspace. The metaspace out-of-memory error has occurred. This can mean two things: either the job requires a larger size of JVM metaspace to load classes or there is a class loading leak. In the first case 'taskmanager.memory.jvm-metaspace.size' configuration option should be increased.",
      'oom.metaspace',
    ],
    ['java.lang.OutOfMemoryError: Compressed class space', 'oom.metaspace'],
    ['java.lang.OutOfMemoryError: PermGen space', 'oom.metaspace'],
    ['java.lang.OutOfMemoryError: Direct buffer memory', 'oom.direct'],
    [
      'java.lang.OutOfMemoryError: Cannot reserve 8192 bytes of direct buffer memory (allocated: 1073741824, limit: 1073741824)',
      'oom.direct',
    ],
    [
      'pipeline-controller  | Exception in thread "Thread-1" java.lang.OutOfMemoryError: Could not allocate enough memory segments for NetworkBufferPool (required (Mb): 5120, allocated (Mb): 1965, missing (Mb): 3155). Cause: Direct buffer memory.',
      'oom.direct',
    ],
    ['java.lang.OutOfMemoryError: unable to create new native thread', 'oom.native-thread'],
    [
      'java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory',
      'oom.native-thread',
    ],
    ['java.lang.OutOfMemoryError: Requested array size exceeds VM limit', 'oom.array-size'],
    [
      'Exception: java.lang.OutOfMemoryError thrown from the UncaughtExceptionHandler in thread "grpc-default-worker-ELG-3-1"',
      'oom.jvm-unspecified',
    ],
    // A JVM flag on the same line does not hide a real error after it.
    [
      'java -XX:OnOutOfMemoryError="kill -9 %p" Main: java.lang.OutOfMemoryError: Java heap space',
      'oom.java-heap',
    ],
    // Slack escapes and ANSI colours are undone before matching.
    ['&gt; java.lang.OutOfMemoryError: Java heap space', 'oom.java-heap'],
    ['\u001b[31mjava.lang.OutOfMemoryError: GC overhead limit exceeded\u001b[0m', 'oom.gc-overhead'],
    [
      'io.trino.ExceededMemoryLimitException: Query exceeded per-node user memory limit of 2GB [Allocated: 1.99GB]',
      'oom.app-memory-limit',
    ],
    ['Query 20240101_000000_00001_abcde failed: EXCEEDED_LOCAL_MEMORY_LIMIT', 'oom.app-memory-limit'],
  ])('%s -> %s', (line, kind) => {
    expect(kindsOf(jvmOom, line)).toEqual([kind]);
  });

  it('reports the network buffer pool as direct memory', () => {
    const line = 'Could not allocate enough memory segments for NetworkBufferPool (required (Mb): 64)';
    expect(findingsOf(jvmOom, line)).toEqual([{ kind: 'oom.direct', values: { area: 'network-buffers' } }]);
  });

  // The JVM prints this line only from VM_ReportJavaOutOfMemory (hotspot vmError.cpp), once the
  // error happened and just before it runs the hook; a launch command never starts with '#'.
  it.each(['# -XX:OnOutOfMemoryError="kill -9 %p"', '#  -XX:OnOutOfMemoryError="kill %p"'])(
    "%s is the JVM's own report of an OutOfMemoryError",
    (line) => {
      expect(findingsOf(jvmOom, line)).toEqual([
        { kind: 'oom.jvm-unspecified', values: { report: 'on-oom-hook' } },
      ]);
    },
  );

  it.each([
    // Wrappers that copy only the message (SQLException(e.getMessage()), reflection, Maven's summary).
    ['java.sql.SQLException: Java heap space', 'oom.java-heap'],
    [
      '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.8.1:compile (default-compile) on project app: Fatal error compiling: java.lang.reflect.InvocationTargetException: Java heap space -> [Help 1]',
      'oom.java-heap',
    ],
    ['[ERROR] Java heap space -> [Help 1]', 'oom.java-heap'],
    ['java.sql.SQLException: GC overhead limit exceeded', 'oom.gc-overhead'],
    ['Caused by: java.lang.reflect.InvocationTargetException: Metaspace', 'oom.metaspace'],
    ['java.util.concurrent.ExecutionException: Direct buffer memory', 'oom.direct'],
    // Flink's explanation on a line of its own once a paste wraps the error.
    ['The metaspace out-of-memory error has occurred. This can mean two things:', 'oom.metaspace'],
    ['The direct out-of-memory error has occurred. This can mean two things:', 'oom.direct'],
    ['A heap space-related out-of-memory error has occurred. This can mean two things:', 'oom.java-heap'],
  ])('%s -> %s', (line, kind) => {
    expect(kindsOf(jvmOom, line)).toEqual([kind]);
  });

  it.each([
    [
      'org.apache.spark.memory.SparkOutOfMemoryError: Unable to acquire 65536 bytes of memory, got 0',
      'spark-execution',
    ],
    [
      'org.apache.spark.memory.SparkOutOfMemoryError: [UNABLE_TO_ACQUIRE_MEMORY] Unable to acquire 262144 bytes of memory, got 172032.',
      'spark-execution',
    ],
    ['java.lang.OutOfMemoryError: Unable to acquire 16777216 bytes of memory, got 0', 'spark-execution'],
    [
      'Exception in thread "broadcast-exchange-0" java.lang.OutOfMemoryError: Not enough memory to build and broadcast the table',
      'spark-broadcast',
    ],
  ])("%s is Spark's heap running out (%s)", (line, pool) => {
    expect(findingsOf(jvmOom, line)).toEqual([{ kind: 'oom.java-heap', values: { pool } }]);
  });

  // TaskMemoryManager throws SparkOutOfMemoryError when a spill fails on I/O: the disk, not memory.
  it.each([
    'org.apache.spark.memory.SparkOutOfMemoryError: error while calling spill() on org.apache.spark.util.collection.unsafe.sort.UnsafeExternalSorter@6e6f5e3f : No space left on device',
    'org.apache.spark.memory.SparkOutOfMemoryError: [SPILL_OUT_OF_MEMORY] Error while calling spill() on org.apache.spark.shuffle.sort.ShuffleExternalSorter@1f2a : No space left on device',
  ])("%s is a failed spill ('spark.spill-failed'), not an OOM", (line) => {
    expect(kindsOf(jvmOom, line)).toEqual(['spark.spill-failed']);
  });

  it.each([
    'Consider increasing the Java heap space with -Xmx',
    'INFO: Metaspace       used 3275K, capacity 4486K, committed 4864K, reserved 1056768K',
    'Spark decided not to build and broadcast the small table',
    '[ERROR] Java heap space usage above 90% on broker-2',
  ])('finds no error in the prose %s', (line) => {
    expect(kindsOf(jvmOom, line)).toEqual([]);
  });

  it.each([
    '/usr/bin/java -Xmx4g -XX:OnOutOfMemoryError="kill -9 %p" -cp app.jar Main',
    "exec java -server -Xmx4096m '-XX:OnOutOfMemoryError=kill %p' org.apache.spark.executor.CoarseGrainedExecutorBackend",
    '-XX:+HeapDumpOnOutOfMemoryError -XX:HeapDumpPath=/tmp/dumps',
    'JAVA_OPTS=-XX:+ExitOnOutOfMemoryError -XX:+CrashOnOutOfMemoryError',
    'INFO MemoryStore: MemoryStore started with capacity 366.3 MiB',
    'java.lang.StackOverflowError',
    'Container exited with a non-zero exit code 127',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(jvmOom, line)).toEqual([]);
  });
});
