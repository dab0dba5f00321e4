import type { Dominators } from './dominators.ts';

/**
 * Retained size of every reached node: its shallow size plus that of everything it dominates. Walks the
 * depth-first order backwards, so each node is finished before its dominator receives it.
 */
export function retainedSizes(dom: Dominators, shallow: ArrayLike<number>, count: number): Float64Array {
  const retained = new Float64Array(count);
  for (let i = dom.order.length - 1; i >= 0; i--) {
    const v = dom.order[i] as number;
    retained[v] = (retained[v] as number) + ((shallow[v] as number) ?? 0);
    const d = dom.idom[v] as number;
    if (d !== v) retained[d] = (retained[d] as number) + (retained[v] as number);
  }
  return retained;
}

/** The dominator tree's children lists: children[childStart[v]..childStart[v+1]) are dominated by v. */
export function dominatorChildren(
  dom: Dominators,
  count: number,
): { childStart: Int32Array; children: Int32Array } {
  const childStart = new Int32Array(count + 1);
  for (const v of dom.order) {
    const d = dom.idom[v] as number;
    if (d !== v) childStart[d + 1] = (childStart[d + 1] as number) + 1;
  }
  for (let i = 0; i < count; i++)
    childStart[i + 1] = (childStart[i + 1] as number) + (childStart[i] as number);
  const fill = childStart.slice(0, count);
  const children = new Int32Array(dom.order.length);
  for (const v of dom.order) {
    const d = dom.idom[v] as number;
    if (d === v) continue;
    const at = fill[d] as number;
    children[at] = v;
    fill[d] = at + 1;
  }
  return { childStart, children };
}
