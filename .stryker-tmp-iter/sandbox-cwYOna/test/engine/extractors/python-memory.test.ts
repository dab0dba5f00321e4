// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { pythonMemory } from '../../../src/engine/extractors/python-memory.ts';
import { kindsOf } from './run-extractor.ts';

describe('python-memory', () => {
  it.each([
    'MemoryError',
    '  MemoryError',
    'builtins.MemoryError',
    'numpy.core._exceptions._ArrayMemoryError: Unable to allocate 7.45 GiB for an array with shape (1000000000,) and data type float64',
    'numpy.core._exceptions.MemoryError: Unable to allocate 3.4 GiB for an array with shape (30000, 30000)',
    '    raise MemoryError("out of memory")',
    'E   MemoryError: cannot allocate array',
    'Task failed with: MemoryError',
    'OSError: [Errno 12] Cannot allocate memory',
  ])('%s -> python.memory-error', (line) => {
    expect(kindsOf(pythonMemory, line)).toEqual(['python.memory-error']);
  });

  it.each([
    // The trigger "memoryerror" is inside OutOfMemoryError: the JVM error is not Python's.
    'java.lang.OutOfMemoryError: Java heap space',
    'from errors import MemoryErrorHandler',
    'Unable to allocate container on node-3',
    'Unable to allocate 4 GiB of disk space',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(pythonMemory, line)).toEqual([]);
  });
});
