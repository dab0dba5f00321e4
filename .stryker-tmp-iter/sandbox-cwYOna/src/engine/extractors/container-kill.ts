// @ts-nocheck
import type { FactValue, Finding } from '../facts.ts';
import { parseSize } from '../units.ts';
import type { Extractor } from './types.ts';

type Resource = 'physical' | 'virtual';

// Bounded and anchored so a long run of digits cannot make the match quadratic.
const SIZE = String.raw`(?<![\d.])(\d{1,15}(?:\.\d{1,6})?\s?[KMGT]i?B)`;
const USAGE: Readonly<Record<Resource, RegExp>> = {
  physical: new RegExp(`${SIZE} of ${SIZE} physical memory used`, 'i'),
  virtual: new RegExp(`${SIZE} of ${SIZE} virtual memory used`, 'i'),
};
// Which limit YARN enforced: "exceeding physical memory limits", "running beyond virtual memory limits".
const YARN_KILL =
  // Hadoop 3 adds the overshoot and quotes the limit: "is running 2654208B beyond the 'PHYSICAL' memory limit".
  /(?:killed by YARN for exceeding|running (?:\d{1,20}(?:\.\d{1,6})?\s?[KMGT]?B? )?beyond) (?:the )?'?(physical|virtual)?'? ?memory limits?/i;
// Also a pod evicted because its node ran short of memory: the pod's own use is the usual reason.
const K8S_KILL = /\bOOMKilled\b|\bOOM ?killed\b|node was low on resource: memory/i;

function usage(line: string, resource: Resource): Record<string, FactValue> {
  const values: Record<string, FactValue> = { resource, manager: 'yarn' };
  const match = USAGE[resource].exec(line);
  const used = parseSize(match?.[1] ?? '');
  const limit = parseSize(match?.[2] ?? '');
  if (used !== undefined) values.usedBytes = used;
  if (limit !== undefined) values.limitBytes = limit;
  return values;
}

function yarnKill(line: string): Finding | undefined {
  const kill = YARN_KILL.exec(line);
  if (kill) {
    const resource: Resource = /virtual/i.test(kill[1] ?? '') ? 'virtual' : 'physical';
    return { kind: 'container.killed-memory', values: usage(line, resource) };
  }
  // A continuation line that only carries the figures, e.g. "4.5 GB of 4.5 GB physical memory used."
  for (const resource of ['physical', 'virtual'] as const) {
    const match = USAGE[resource].exec(line);
    const used = parseSize(match?.[1] ?? '');
    const limit = parseSize(match?.[2] ?? '');
    if (used !== undefined && limit !== undefined && used >= limit) {
      return { kind: 'container.killed-memory', values: usage(line, resource) };
    }
  }
  return undefined;
}

/** A container or pod killed by its resource manager for using more memory than its limit. */
export const containerKill: Extractor = {
  id: 'container-kill',
  description:
    'YARN "killed for exceeding memory limits" / "running beyond ... memory limits" with used/limit figures, Kubernetes OOMKilled',
  triggers: [
    'memory used',
    'memory limit',
    'oomkilled',
    'oom killed',
    'oom-killed',
    'low on resource: memory',
  ],
  extract(line) {
    const yarn = yarnKill(line);
    if (yarn) return [yarn];
    if (K8S_KILL.test(line))
      return [{ kind: 'container.killed-memory', values: { resource: 'physical', manager: 'kubernetes' } }];
    return [];
  },
};
