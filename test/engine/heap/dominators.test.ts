import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Csr, dominators } from '../../../src/engine/heap/dominators.ts';
import { retainedSizes } from '../../../src/engine/heap/retained.ts';

function csr(count: number, edges: [number, number][]): { succ: Csr; pred: Csr } {
  const build = (pairs: [number, number][]): Csr => {
    const start = new Float64Array(count + 1);
    for (const [from] of pairs) start[from + 1] = (start[from + 1] as number) + 1;
    for (let i = 0; i < count; i++) start[i + 1] = (start[i + 1] as number) + (start[i] as number);
    const fill = start.slice(0, count);
    const targets = new Int32Array(pairs.length);
    for (const [from, to] of pairs) {
      targets[fill[from] as number] = to;
      fill[from] = (fill[from] as number) + 1;
    }
    return { count, start, targets };
  };
  return { succ: build(edges), pred: build(edges.map(([a, b]) => [b, a])) };
}

/** Reached from the root when `removed` is taken out of the graph (the definition of dominance). */
function reachableWithout(
  count: number,
  edges: [number, number][],
  root: number,
  removed: number,
): boolean[] {
  const seen = new Array<boolean>(count).fill(false);
  if (removed === root) return seen;
  const stack = [root];
  seen[root] = true;
  while (stack.length > 0) {
    const v = stack.pop() as number;
    for (const [a, b] of edges) {
      if (a !== v || b === removed || seen[b]) continue;
      seen[b] = true;
      stack.push(b);
    }
  }
  return seen;
}

/**
 * The plain reference: d dominates v when v is unreachable without d; v's immediate dominator is the
 * strict dominator that every other strict dominator dominates, i.e. the one with the most dominators.
 */
function referenceIdom(count: number, edges: [number, number][], root: number): number[] {
  const all = reachableWithout(count, edges, root, -1);
  const dominatedBy: Set<number>[] = Array.from({ length: count }, () => new Set<number>());
  for (let d = 0; d < count; d++) {
    if (!all[d]) continue;
    const without = reachableWithout(count, edges, root, d);
    for (let v = 0; v < count; v++) if (all[v] && v !== d && !without[v]) dominatedBy[v]?.add(d);
  }
  return Array.from({ length: count }, (_, v) => {
    if (!all[v]) return -1;
    if (v === root) return root;
    let best = -1;
    for (const d of dominatedBy[v] as Set<number>) {
      if (best === -1 || (dominatedBy[d] as Set<number>).size > (dominatedBy[best] as Set<number>).size)
        best = d;
    }
    return best;
  });
}

/** Sum of sizes over the nodes whose dominator chain passes through v (v included). */
function subtreeSum(idom: number[], root: number, v: number, sizes: number[]): number {
  let sum = 0;
  for (let w = 0; w < idom.length; w++) {
    if (idom[w] === -1) continue;
    let x = w;
    while (x !== v && x !== root) x = idom[x] as number;
    if (x === v) sum += sizes[w] as number;
  }
  return sum;
}

const graphs = fc.integer({ min: 1, max: 16 }).chain((count) =>
  fc.record({
    count: fc.constant(count),
    root: fc.integer({ min: 0, max: count - 1 }),
    edges: fc.array(
      fc.tuple(fc.integer({ min: 0, max: count - 1 }), fc.integer({ min: 0, max: count - 1 })),
      { maxLength: count * 2 },
    ),
  }),
);

describe('dominators (iterative Lengauer-Tarjan)', () => {
  it('agrees with the definition on generated graphs (cycles, self-loops, unreachable nodes, parallel edges)', () => {
    fc.assert(
      fc.property(graphs, ({ count, root, edges }) => {
        const { succ, pred } = csr(count, edges);
        const { idom } = dominators(succ, pred, root);
        expect([...idom]).toEqual(referenceIdom(count, edges, root));
      }),
      // Small, sparse graphs: the shapes where a semidominator is not the immediate dominator are common there.
      { numRuns: 3000 },
    );
  });

  it('agrees with the definition when one edge per node is implied (an object to its class) rather than stored', () => {
    fc.assert(
      fc.property(graphs, fc.array(fc.integer({ min: -1, max: 15 })), ({ count, root, edges }, extra) => {
        // Node v's implied edge goes to extra[v] (none when -1 or out of range); stored edges as generated.
        const impliedOf = (v: number) => {
          const w = extra[v] ?? -1;
          return w < count ? w : -1;
        };
        const all: [number, number][] = [...edges];
        for (let v = 0; v < count; v++) if (impliedOf(v) >= 0) all.push([v, impliedOf(v)]);
        const stored = csr(count, edges).succ;
        const { pred } = csr(count, all);
        const { idom } = dominators({ ...stored, implied: impliedOf }, pred, root);
        expect([...idom]).toEqual(referenceIdom(count, all, root));
      }),
      { numRuns: 2000 },
    );
  });

  it('corrects a semidominator that is not the immediate dominator (a graph the property found)', () => {
    const edges: [number, number][] = [
      [1, 0],
      [1, 3],
      [2, 1],
      [2, 0],
      [0, 3],
    ];
    const { succ, pred } = csr(5, edges);
    expect([...dominators(succ, pred, 2).idom]).toEqual([2, 2, 2, 2, -1]);
  });

  it('retained sizes equal the sum of shallow sizes over each dominator subtree', () => {
    fc.assert(
      fc.property(
        graphs,
        fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 16, maxLength: 16 }),
        ({ count, root, edges }, sizes) => {
          const { succ, pred } = csr(count, edges);
          const dom = dominators(succ, pred, root);
          const retained = retainedSizes(dom, sizes, count);
          const idom = referenceIdom(count, edges, root);
          for (let v = 0; v < count; v++) {
            if (idom[v] !== -1) expect(retained[v]).toBe(subtreeSum(idom, root, v, sizes));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('handles a chain of a million nodes without recursion (each node dominated by the one before)', () => {
    const n = 1_000_000;
    const start = new Float64Array(n + 1);
    const targets = new Int32Array(n - 1);
    for (let i = 0; i < n; i++) start[i + 1] = Math.min(i + 1, n - 1);
    for (let i = 0; i < n - 1; i++) targets[i] = i + 1;
    const predStart = new Float64Array(n + 1);
    for (let i = 1; i <= n; i++) predStart[i] = i - 1;
    const preds = new Int32Array(n - 1);
    for (let i = 0; i < n - 1; i++) preds[i] = i;
    const dom = dominators({ count: n, start, targets }, { count: n, start: predStart, targets: preds }, 0);
    expect(dom.order.length).toBe(n);
    for (let i = 1; i < n; i++) if (dom.idom[i] !== i - 1) expect.fail(`idom[${i}] = ${dom.idom[i]}`);
    const retained = retainedSizes(dom, new Float64Array(n).fill(24), n);
    expect(retained[0]).toBe(24 * n);
    expect(retained[n - 1]).toBe(24);
  });

  it('handles a million-node chain closed into a cycle back to the root, and a diamond at its end', () => {
    const n = 1_000_000;
    const edges: [number, number][] = [];
    for (let i = 0; i < n - 1; i++) edges.push([i, i + 1]);
    edges.push([n - 1, 0], [n - 3, n - 1]);
    const { succ, pred } = csr(n, edges);
    const { idom } = dominators(succ, pred, 0);
    expect(idom[n - 1]).toBe(n - 3);
    expect(idom[n - 2]).toBe(n - 3);
    expect(idom[n / 2]).toBe(n / 2 - 1);
  });
});
