import type { FactValue } from '../facts.ts';
import { parseSize } from '../units.ts';
import { applyRules, type LineRule } from './rules.ts';
import type { Extractor } from './types.ts';

const SIZE = String.raw`(\d+(?:\.\d+)?\s?[KMGT]i?B)`;

function usage(resource: 'physical' | 'virtual') {
  return (match: RegExpExecArray): Record<string, FactValue> => {
    const used = parseSize(match[1] ?? '');
    const limit = parseSize(match[2] ?? '');
    const values: Record<string, FactValue> = { resource, manager: 'yarn' };
    if (used !== undefined) values.usedBytes = used;
    if (limit !== undefined) values.limitBytes = limit;
    return values;
  };
}

const RULES: readonly LineRule[] = [
  {
    // "Container killed by YARN for exceeding (physical) memory limits. 4.5 GB of 4.5 GB physical memory used."
    re: new RegExp(String.raw`${SIZE} of ${SIZE} physical memory used`, 'i'),
    kind: 'container.killed-memory',
    values: usage('physical'),
  },
  {
    re: new RegExp(String.raw`${SIZE} of ${SIZE} virtual memory used`, 'i'),
    kind: 'container.killed-memory',
    values: usage('virtual'),
  },
  {
    re: /killed by YARN for exceeding (?:physical |virtual )?memory limits|running beyond (?:physical|virtual) memory limits/i,
    kind: 'container.killed-memory',
    values: (m) => ({ resource: /virtual/i.test(m[0]) ? 'virtual' : 'physical', manager: 'yarn' }),
  },
  {
    re: /\bOOMKilled\b|reason:\s*OOMKilled|\bOOM ?killed\b/i,
    kind: 'container.killed-memory',
    values: () => ({ resource: 'physical', manager: 'kubernetes' }),
  },
];

/** A container or pod killed by its resource manager for using more memory than its limit. */
export const containerKill: Extractor = {
  id: 'container-kill',
  description:
    'YARN "killed for exceeding memory limits" / "running beyond ... memory limits" with used/limit figures, Kubernetes OOMKilled',
  triggers: ['memory used', 'memory limits', 'oomkilled', 'oom killed', 'oom-killed'],
  extract: (line) => applyRules(RULES, line),
};
