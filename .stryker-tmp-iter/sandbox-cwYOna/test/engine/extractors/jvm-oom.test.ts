// @ts-nocheck
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
  ])('%s -> %s', (line, kind) => {
    expect(kindsOf(jvmOom, line)).toEqual([kind]);
  });

  it('reports the network buffer pool as direct memory', () => {
    const line = 'Could not allocate enough memory segments for NetworkBufferPool (required (Mb): 64)';
    expect(findingsOf(jvmOom, line)).toEqual([{ kind: 'oom.direct', values: { area: 'network-buffers' } }]);
  });

  it.each([
    '/usr/bin/java -Xmx4g -XX:OnOutOfMemoryError="kill -9 %p" -cp app.jar Main',
    '# -XX:OnOutOfMemoryError="kill -9 %p"',
    '-XX:+HeapDumpOnOutOfMemoryError -XX:HeapDumpPath=/tmp/dumps',
    'JAVA_OPTS=-XX:+ExitOnOutOfMemoryError -XX:+CrashOnOutOfMemoryError',
    'INFO MemoryStore: MemoryStore started with capacity 366.3 MiB',
    'java.lang.StackOverflowError',
    'Container exited with a non-zero exit code 127',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(jvmOom, line)).toEqual([]);
  });
});
