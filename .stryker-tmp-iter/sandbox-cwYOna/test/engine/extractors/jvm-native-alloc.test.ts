// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { jvmNativeAlloc } from '../../../src/engine/extractors/jvm-native-alloc.ts';
import { kindsOf } from './run-extractor.ts';

describe('jvm-native-alloc', () => {
  it.each([
    '# There is insufficient memory for the Java Runtime Environment to continue.',
    '11:46:20 # There is insufficient memory',
    '# Native memory allocation (mmap) failed to map 716701696 bytes for committing reserved memory.',
    '# Native memory allocation (malloc) failed to allocate 1048576 bytes for AllocateHeap',
    "11:46:20 OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(0x0000000735d80000, 716701696, 0) failed; error='Cannot allocate memory' (errno=12)",
    "error='Cannot allocate memory' (errno=12)",
  ])('%s -> oom.jvm-native, once', (line) => {
    expect(kindsOf(jvmNativeAlloc, line)).toEqual(['oom.jvm-native']);
  });

  it.each([
    'bash: fork: Cannot allocate memory',
    'WARN: the node has insufficient memory headroom configured',
    "error='Permission denied' (errno=13)",
    'java.lang.OutOfMemoryError: Java heap space',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(jvmNativeAlloc, line)).toEqual([]);
  });
});
