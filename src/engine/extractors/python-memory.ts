import { applyRules, type LineRule } from './rules.ts';
import type { Extractor, MessageFamily } from './types.ts';

const RULES: readonly LineRule[] = [
  { re: /^\s*(?:builtins\.)?MemoryError\b/, kind: 'python.memory-error' },
  {
    re: /\b_?ArrayMemoryError\b|Unable to allocate [\d.]+ [KMGT]i?B for an array/,
    kind: 'python.memory-error',
  },
  { re: /\bMemoryError(?:\(|: |\s*$)/, kind: 'python.memory-error' },
  // fork() or mmap refused by the kernel inside Python: "OSError: [Errno 12] Cannot allocate memory".
  { re: /\[Errno 12\] Cannot allocate memory/, kind: 'python.memory-error' },
];

const FAMILIES: readonly MessageFamily[] = [
  {
    name: 'MemoryError raised by the interpreter',
    kind: 'python.memory-error',
    source:
      'python/cpython Objects/exceptions.c (MemoryError), Python/errors.c (PyErr_NoMemory); traceback module output',
    versions: 'Python 2.7-3.13 ("builtins.MemoryError" where the full name is printed)',
    examples: [
      'MemoryError',
      'builtins.MemoryError',
      '    raise MemoryError()',
      'MemoryError: Unable to allocate output buffer.',
    ],
  },
  {
    name: "numpy's ArrayMemoryError",
    kind: 'python.memory-error',
    source:
      'numpy/numpy numpy/core/_exceptions.py (_ArrayMemoryError.__str__: "Unable to allocate %s for an array with shape %s and data type %s")',
    versions: 'numpy 1.17+',
    examples: [
      'numpy.core._exceptions._ArrayMemoryError: Unable to allocate 7.45 GiB for an array with shape (1000000000,) and data type float64',
      'numpy.core._exceptions.MemoryError: Unable to allocate 3.73 GiB for an array with shape (500000000,) and data type int64',
    ],
  },
  {
    name: 'ENOMEM from fork or mmap inside Python',
    kind: 'python.memory-error',
    source:
      'python/cpython Modules/posixmodule.c (OSError from errno); glibc strerror(ENOMEM) "Cannot allocate memory"',
    versions: 'Python 3.x on Linux',
    examples: ['OSError: [Errno 12] Cannot allocate memory'],
  },
];

/** Python's own out-of-memory exception (MemoryError, numpy's ArrayMemoryError). */
export const pythonMemory: Extractor = {
  id: 'python-memory',
  description: "Python's MemoryError and numpy's ArrayMemoryError",
  triggers: ['memoryerror', 'unable to allocate', 'errno 12'],
  extract: (line) => applyRules(RULES, line),
  families: FAMILIES,
  patterns: RULES.map((rule) => rule.re),
};
