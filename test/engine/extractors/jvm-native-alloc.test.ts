import { describe, expect, it } from 'vitest';
import { jvmNativeAlloc } from '../../../src/engine/extractors/jvm-native-alloc.ts';
import { findingsOf, kindsOf } from './run-extractor.ts';

describe('jvm-native-alloc', () => {
  it.each([
    '# There is insufficient memory for the Java Runtime Environment to continue.',
    '11:46:20 # There is insufficient memory',
    '# Native memory allocation (mmap) failed to map 716701696 bytes for committing reserved memory.',
    '# Native memory allocation (malloc) failed to allocate 1048576 bytes for AllocateHeap',
    "11:46:20 OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(0x0000000735d80000, 716701696, 0) failed; error='Cannot allocate memory' (errno=12)",
    "error='Cannot allocate memory' (errno=12)",
    "Java HotSpot(TM) 64-Bit Server VM warning: INFO: os::commit_memory(0x00007f1b4c000000, 65536, 1) failed; error='Not enough space' (errno=12)",
    '#   The system is out of physical RAM or swap space',
    '#  Out of Memory Error (os_linux.cpp:2749), pid=4811, tid=0x00007f2a3c1fe700',
    '# Cannot create GC thread. Out of system resources.',
  ])('%s -> oom.jvm-native, once', (line) => {
    expect(kindsOf(jvmNativeAlloc, line)).toEqual(['oom.jvm-native']);
  });

  it.each([
    'Could not reserve enough space for object heap',
    'Could not reserve enough space for 2097152KB object heap',
    'elasticsearch_1  | Could not reserve enough space for 2097152KB object heap',
  ])('%s -> the heap could not be reserved at start-up', (line) => {
    expect(findingsOf(jvmNativeAlloc, line)).toEqual([
      { kind: 'oom.jvm-native', values: { phase: 'start-up', area: 'heap' } },
    ]);
  });

  it.each([
    'Unable to allocate 262144KB bitmaps for parallel garbage collection for the requested 8388608KB heap.',
    'Could not reserve enough space for code cache',
    'Could not allocate metaspace: 1073741824 bytes',
  ])('%s -> another area could not be reserved at start-up', (line) => {
    expect(findingsOf(jvmNativeAlloc, line)).toEqual([
      { kind: 'oom.jvm-native', values: { phase: 'start-up' } },
    ]);
  });

  it.each([
    'bash: fork: Cannot allocate memory',
    // Settings the JVM refuses at start-up are a configuration error, not a lack of memory.
    'Error occurred during initialization of VM',
    'Initial heap size set to a larger value than the maximum heap size',
    'Invalid maximum heap size: -Xmx64G',
    'WARN: the node has insufficient memory headroom configured',
    "error='Permission denied' (errno=13)",
    'java.lang.OutOfMemoryError: Java heap space',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(jvmNativeAlloc, line)).toEqual([]);
  });
});
