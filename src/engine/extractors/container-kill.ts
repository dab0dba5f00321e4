import type { FactValue, Finding } from '../facts.ts';
import { LOG_SIZE, parseSize } from '../units.ts';
import { CONTAINER_KILL_FAMILIES } from './container-kill-families.ts';
import type { Extractor } from './types.ts';

type Resource = 'physical' | 'virtual';

const SIZE = LOG_SIZE;
const USAGE: Readonly<Record<Resource, RegExp>> = {
  physical: new RegExp(`${SIZE} of ${SIZE} physical memory used`, 'i'),
  virtual: new RegExp(`${SIZE} of ${SIZE} virtual memory used`, 'i'),
};
// Which limit YARN enforced: "exceeding physical memory limits", "running beyond virtual memory limits".
const YARN_KILL =
  // Hadoop 3 adds the overshoot and quotes the limit: "is running 2654208B beyond the 'PHYSICAL' memory limit".
  /(?:killed by YARN for exceeding|running (?:\d{1,20}(?:\.\d{1,6})?\s?[KMGT]?B? )?beyond) (?:the )?'?(physical|virtual)?'? ?memory limits?/i;
// Also a pod evicted because its node ran short of memory: the pod's own use is the usual reason.
// Not docker inspect's "OOMKilled": false, which every container's state prints.
const K8S_KILL = /\bOOM ?killed\b(?!["']?\s{0,3}[:=]\s{0,3}false)|node was low on resource: memory/i;

/** USAGE searched from an index (lastIndex): the same first match wherever it starts. */
const USAGE_FROM: Readonly<Record<Resource, RegExp>> = {
  physical: new RegExp(`${SIZE} of ${SIZE} physical memory used`, 'gi'),
  virtual: new RegExp(`${SIZE} of ${SIZE} virtual memory used`, 'gi'),
};
/**
 * The most characters a USAGE match holds before its "physical" or "virtual": two sizes of at most
 * 26 (15 digits, a point and 6, a space, a three-letter unit), " of " and a space.
 */
const USAGE_REACH = 26 + 4 + 26 + 1;

/**
 * USAGE's match in the line, searched only from USAGE_REACH characters before the first "physical
 * memory used" (or virtual) in `lower`, the line lower-cased: a match lies there, as its letters are
 * ASCII, which lower-casing keeps in place while it keeps the line's length. YARN's monitor prints
 * one such line per container every few seconds, a line of 250 characters most of which no match
 * can start in.
 */
function usageMatch(line: string, lower: string, resource: Resource): RegExpExecArray | null {
  if (lower.length !== line.length) return USAGE[resource].exec(line);
  const at = lower.indexOf(`${resource} memory used`);
  if (at === -1) return null;
  const search = USAGE_FROM[resource];
  search.lastIndex = Math.max(0, at - USAGE_REACH);
  return search.exec(line);
}

/**
 * parseSize of a USAGE capture, kept: the monitor's lines repeat the same sizes. Its used sizes have
 * one decimal, up to about 10,000 of them a unit (9,108 on the bench's 256 MiB dense10 log): a
 * smaller bound was emptied again and again there, so that nearly every size missed.
 */
const SIZES = new Map<string, number | undefined>();
const SIZES_KEPT = 32_768;

function sizeOf(text: string): number | undefined {
  const known = SIZES.get(text);
  if (known !== undefined) return known;
  if (SIZES.size >= SIZES_KEPT) SIZES.clear();
  const size = parseSize(text);
  SIZES.set(text, size);
  return size;
}

function figures(line: string, lower: string, resource: Resource): { used?: number; limit?: number } {
  const match = usageMatch(line, lower, resource);
  return { used: sizeOf(match?.[1] ?? ''), limit: sizeOf(match?.[2] ?? '') };
}

/**
 * The used/limit figures of the resource YARN enforced. A virtual-memory kill also carries the
 * physical figures on the same line ("1.0 GB of 1 GB physical memory used; 2.2 GB of 2.1 GB virtual
 * memory used"): the physical limit is what yarn.nodemanager.vmem-pmem-ratio multiplies.
 */
function usage(line: string, lower: string, resource: Resource): Record<string, FactValue> {
  const values: Record<string, FactValue> = { resource, manager: 'yarn' };
  const { used, limit } = figures(line, lower, resource);
  if (used !== undefined) values.usedBytes = used;
  if (limit !== undefined) values.limitBytes = limit;
  if (resource === 'virtual') {
    const physical = figures(line, lower, 'physical');
    if (physical.used !== undefined) values.physicalUsedBytes = physical.used;
    if (physical.limit !== undefined) values.physicalLimitBytes = physical.limit;
  }
  return values;
}

/**
 * Which limit a kill line names. Spark 2.x words a virtual-memory kill as "Container killed by YARN
 * for exceeding memory limits. 2.2 GB of 2.1 GB virtual memory used" (YarnAllocator.scala), so a
 * line that names no resource is judged by the only figures it carries.
 */
function killedResource(line: string, named: string | undefined): Resource {
  if (named) return /virtual/i.test(named) ? 'virtual' : 'physical';
  return USAGE.virtual.test(line) && !USAGE.physical.test(line) ? 'virtual' : 'physical';
}

function yarnKill(line: string, lower: string): Finding | undefined {
  // YARN_KILL's ASCII "memory limit" is in the lower-cased line wherever the line matches it.
  const kill = lower.includes('memory limit') ? YARN_KILL.exec(line) : null;
  if (kill)
    return { kind: 'container.killed-memory', values: usage(line, lower, killedResource(line, kill[1])) };
  // A continuation line that only carries the figures, e.g. "4.5 GB of 4.5 GB physical memory used."
  for (const resource of ['physical', 'virtual'] as const) {
    const { used, limit } = figures(line, lower, resource);
    if (used !== undefined && limit !== undefined && used >= limit) {
      return { kind: 'container.killed-memory', values: usage(line, lower, resource) };
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
    const lower = line.toLowerCase();
    const yarn = yarnKill(line, lower);
    if (yarn) return [yarn];
    if ((lower.includes('oom') || lower.includes('low on resource: memory')) && K8S_KILL.test(line))
      return [{ kind: 'container.killed-memory', values: { resource: 'physical', manager: 'kubernetes' } }];
    return [];
  },
  families: CONTAINER_KILL_FAMILIES,
  patterns: [YARN_KILL, USAGE.physical, USAGE.virtual, K8S_KILL],
};
