/** A directed graph in compressed-sparse-row form over nodes 0..count-1. */
export interface Csr {
  count: number;
  start: ArrayLike<number>;
  targets: ArrayLike<number>;
}

/** Immediate dominators: idom[v] for every node reached from the root (the root's own is itself), else -1. */
export interface Dominators {
  idom: Int32Array;
  /** Reached nodes in depth-first order from the root: a node's dominator always comes before it. */
  order: Int32Array;
}

/**
 * Lengauer-Tarjan ("A fast algorithm for finding dominators in a flowgraph", 1979), the simple version
 * with path compression, written without recursion: a chain of millions of objects (a long linked list)
 * must not overflow the stack. Arrays are indexed by depth-first number; `order` maps back to nodes.
 */
export function dominators(succ: Csr, pred: Csr, root: number): Dominators {
  const n = succ.count;
  const dfn = new Int32Array(n).fill(-1);
  const order = new Int32Array(n);
  const parent = new Int32Array(n);
  const reached = depthFirst(succ, root, dfn, order, parent);
  const idomDfn = semidominators(pred, dfn, order, parent, reached);
  const idom = new Int32Array(n).fill(-1);
  idom[root] = root;
  for (let w = 1; w < reached; w++) idom[order[w] as number] = order[idomDfn[w] as number] as number;
  return { idom, order: order.slice(0, reached) };
}

/**
 * Lengauer-Tarjan's steps 2-4 in depth-first numbers: semidominators in reverse preorder with the
 * link-eval forest, each bucket's implicit dominators, then the correction in preorder.
 */
function semidominators(
  pred: Csr,
  dfn: Int32Array,
  order: Int32Array,
  parent: Int32Array,
  reached: number,
): Int32Array {
  const forest = new LinkEval(reached);
  const { semi } = forest;
  const idomDfn = new Int32Array(reached);
  const bucketHead = new Int32Array(reached).fill(-1);
  const bucketNext = new Int32Array(reached).fill(-1);
  for (let w = reached - 1; w > 0; w--) {
    const node = order[w] as number;
    for (let e = pred.start[node] as number; e < (pred.start[node + 1] as number); e++) {
      const v = dfn[pred.targets[e] as number] as number;
      if (v < 0) continue;
      const u = forest.evaluate(v);
      if ((semi[u] as number) < (semi[w] as number)) semi[w] = semi[u] as number;
    }
    const s = semi[w] as number;
    bucketNext[w] = bucketHead[s] as number;
    bucketHead[s] = w;
    const p = parent[w] as number;
    forest.ancestor[w] = p;
    for (let v = bucketHead[p] as number; v !== -1; v = bucketNext[v] as number) {
      const u = forest.evaluate(v);
      idomDfn[v] = (semi[u] as number) < (semi[v] as number) ? u : p;
    }
    bucketHead[p] = -1;
  }
  for (let w = 1; w < reached; w++) {
    if (idomDfn[w] !== semi[w]) idomDfn[w] = idomDfn[idomDfn[w] as number] as number;
  }
  return idomDfn;
}

/** The link-eval forest over depth-first numbers: semidominators, labels, ancestors. */
class LinkEval {
  readonly semi: Int32Array;
  readonly label: Int32Array;
  readonly ancestor: Int32Array;
  private readonly stack: Int32Array;

  constructor(size: number) {
    this.semi = new Int32Array(size);
    this.label = new Int32Array(size);
    this.ancestor = new Int32Array(size).fill(-1);
    this.stack = new Int32Array(size);
    for (let i = 0; i < size; i++) {
      this.semi[i] = i;
      this.label[i] = i;
    }
  }

  /** The vertex of least semidominator on v's forest path (v itself at a tree's root). */
  evaluate(v: number): number {
    if (this.ancestor[v] === -1) return v;
    compress(v, this.ancestor, this.label, this.semi, this.stack);
    return this.label[v] as number;
  }
}

/** Numbers nodes in depth-first preorder from the root; returns how many were reached. */
function depthFirst(succ: Csr, root: number, dfn: Int32Array, order: Int32Array, parent: Int32Array): number {
  const nodeStack = new Int32Array(succ.count);
  const edgeStack = new Float64Array(succ.count);
  let top = 0;
  let count = 0;
  dfn[root] = count;
  order[count] = root;
  parent[count++] = -1;
  nodeStack[0] = root;
  edgeStack[0] = succ.start[root] as number;
  while (top >= 0) {
    const v = nodeStack[top] as number;
    const e = edgeStack[top] as number;
    if (e >= (succ.start[v + 1] as number)) {
      top--;
      continue;
    }
    edgeStack[top] = e + 1;
    const w = succ.targets[e] as number;
    if (dfn[w] !== -1) continue;
    dfn[w] = count;
    order[count] = w;
    parent[count++] = dfn[v] as number;
    top++;
    nodeStack[top] = w;
    edgeStack[top] = succ.start[w] as number;
  }
  return count;
}

/** Path compression along the ancestor chain of v, iteratively: the recursive form follows the chain. */
function compress(
  v: number,
  ancestor: Int32Array,
  label: Int32Array,
  semi: Int32Array,
  stack: Int32Array,
): void {
  let top = 0;
  let x = v;
  while (ancestor[ancestor[x] as number] !== -1) {
    stack[top++] = x;
    x = ancestor[x] as number;
  }
  while (top > 0) {
    const y = stack[--top] as number;
    const a = ancestor[y] as number;
    if ((semi[label[a] as number] as number) < (semi[label[y] as number] as number))
      label[y] = label[a] as number;
    ancestor[y] = ancestor[a] as number;
  }
}
