// @ts-nocheck
import { applyRules, type LineRule } from './rules.ts';
import type { Extractor } from './types.ts';

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

/** Python's own out-of-memory exception (MemoryError, numpy's ArrayMemoryError). */
export const pythonMemory: Extractor = {
  id: 'python-memory',
  description: "Python's MemoryError and numpy's ArrayMemoryError",
  triggers: ['memoryerror', 'unable to allocate', 'errno 12'],
  extract: (line) => applyRules(RULES, line),
};
