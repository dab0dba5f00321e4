/** A directed graph in compressed-sparse-row form over nodes 0..count-1. */
export interface Csr {
  count: number;
  start: ArrayLike<number>;
  targets: ArrayLike<number>;
  /** An edge of v kept outside the arrays (an object's class), walked before them; -1 when none. */
  implied?: (v: number) => number;
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
 * Memory is what bounds a big dump, so arrays are shared where their lives do not overlap: the
 * depth-first stacks become the semidominators and labels, the tree parents become the forest's
 * ancestors, the buckets are chained through the dominator array, and idom overwrites dfn.
 */
export function dominators(succ: Csr, pred: Csr, root: number): Dominators {
  const n = succ.count;
  const dfn = new Int32Array(n).fill(-1);
  const order = new Int32Array(n);
  const parent = new Int32Array(n);
  const stacks = { nodes: new Int32Array(n), edges: edgeStack(n, succ.targets.length + 1) };
  const reached = depthFirst(succ, root, dfn, order, parent, stacks);
  const edges = stacks.edges instanceof Int32Array ? stacks.edges : new Int32Array(n);
  const forest = new LinkEval(reached, stacks.nodes, edges, parent);
  const idomDfn = semidominators(pred, dfn, order, forest, reached);
  // dfn becomes idom, each entry read before it is written.
  for (let v = 0; v < n; v++) {
    const d = dfn[v] as number;
    dfn[v] = d < 0 ? -1 : d === 0 ? root : (order[idomDfn[d] as number] as number);
  }
  return { idom: dfn, order: order.subarray(0, reached) };
}

/** Edge offsets on the depth-first stack: 4 bytes each when every offset fits (a graph under 2^31 edges). */
function edgeStack(n: number, edges: number): Int32Array | Float64Array {
  return edges < 0x7fffffff ? new Int32Array(n) : new Float64Array(n);
}

/**
 * Lengauer-Tarjan's steps 2-4 in depth-first numbers: semidominators in reverse preorder with the
 * link-eval forest, each bucket's implicit dominators, then the correction in preorder. A node's bucket
 * chain lives in idomDfn until the node's dominator is written there.
 */
function semidominators(
  pred: Csr,
  dfn: Int32Array,
  order: Int32Array,
  forest: LinkEval,
  reached: number,
): Int32Array {
  const { semi } = forest;
  const idomDfn = new Int32Array(reached);
  const bucketHead = new Int32Array(reached).fill(-1);
  for (let w = reached - 1; w > 0; w--) {
    const node = order[w] as number;
    for (let e = pred.start[node] as number; e < (pred.start[node + 1] as number); e++) {
      const v = dfn[pred.targets[e] as number] as number;
      if (v < 0) continue;
      const u = forest.evaluate(v);
      if ((semi[u] as number) < (semi[w] as number)) semi[w] = semi[u] as number;
    }
    const s = semi[w] as number;
    idomDfn[w] = bucketHead[s] as number;
    bucketHead[s] = w;
    const p = forest.link(w);
    for (let v = bucketHead[p] as number; v !== -1; ) {
      const next = idomDfn[v] as number;
      const u = forest.evaluate(v);
      idomDfn[v] = (semi[u] as number) < (semi[v] as number) ? u : p;
      v = next;
    }
    bucketHead[p] = -1;
  }
  for (let w = 1; w < reached; w++) {
    if (idomDfn[w] !== semi[w]) idomDfn[w] = idomDfn[idomDfn[w] as number] as number;
  }
  return idomDfn;
}

/**
 * The link-eval forest over depth-first numbers: semidominators, labels, ancestors. Nodes are linked in
 * reverse preorder, so those linked are exactly the numbers from `linkedFrom` up; a node's ancestor
 * starts as its depth-first parent (the array the search filled), which link() makes it.
 */
class LinkEval {
  private linkedFrom: number;
  private stack = new Int32Array(1024);

  constructor(
    size: number,
    readonly semi: Int32Array,
    readonly label: Int32Array,
    private readonly ancestor: Int32Array,
  ) {
    this.linkedFrom = size;
    for (let i = 0; i < size; i++) {
      semi[i] = i;
      label[i] = i;
    }
  }

  /** Links w to its depth-first parent, which it returns. */
  link(w: number): number {
    this.linkedFrom = w;
    return this.ancestor[w] as number;
  }

  /** The vertex of least semidominator on v's forest path (v itself at a tree's root). */
  evaluate(v: number): number {
    if (v < this.linkedFrom) return v;
    this.compress(v);
    return this.label[v] as number;
  }

  /** Path compression along the ancestor chain of v, iteratively: the recursive form follows the chain. */
  private compress(v: number): void {
    const { ancestor, label, semi } = this;
    let top = 0;
    let x = v;
    while ((ancestor[x] as number) >= this.linkedFrom) {
      if (top === this.stack.length) this.growStack();
      this.stack[top++] = x;
      x = ancestor[x] as number;
    }
    while (top > 0) {
      const y = this.stack[--top] as number;
      const a = ancestor[y] as number;
      if ((semi[label[a] as number] as number) < (semi[label[y] as number] as number))
        label[y] = label[a] as number;
      ancestor[y] = ancestor[a] as number;
    }
  }

  private growStack(): void {
    const bigger = new Int32Array(this.stack.length * 2);
    bigger.set(this.stack);
    this.stack = bigger;
  }
}

/**
 * Numbers nodes in depth-first preorder from the root; returns how many were reached. A node's edge
 * position starts one before its arrays when it has an implied edge, which stands at that position.
 */
function depthFirst(
  succ: Csr,
  root: number,
  dfn: Int32Array,
  order: Int32Array,
  parent: Int32Array,
  stacks: { nodes: Int32Array; edges: Int32Array | Float64Array },
): number {
  const { nodes: nodeStack, edges: edgeStack } = stacks;
  const implied = succ.implied ?? (() => -1);
  const firstEdge = (v: number) => (succ.start[v] as number) - (implied(v) >= 0 ? 1 : 0);
  let top = 0;
  let count = 0;
  dfn[root] = count;
  order[count] = root;
  parent[count++] = -1;
  nodeStack[0] = root;
  edgeStack[0] = firstEdge(root);
  while (top >= 0) {
    const v = nodeStack[top] as number;
    const e = edgeStack[top] as number;
    if (e >= (succ.start[v + 1] as number)) {
      top--;
      continue;
    }
    edgeStack[top] = e + 1;
    const w = e < (succ.start[v] as number) ? implied(v) : (succ.targets[e] as number);
    if (dfn[w] !== -1) continue;
    dfn[w] = count;
    order[count] = w;
    parent[count++] = dfn[v] as number;
    top++;
    nodeStack[top] = w;
    edgeStack[top] = firstEdge(w);
  }
  return count;
}
