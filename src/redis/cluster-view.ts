import { z } from 'zod';

/** Every Redis Cluster has this many hash slots; all must be served for every key to be. */
export const CLUSTER_SLOTS = 16_384;

/** What a cluster says about itself, judged by the least complete view among its masters that answered. */
export interface ClusterHealth {
  /** `ok` when every master that answered says cluster_state:ok; `unknown` when none answered. */
  state: 'ok' | 'fail' | 'unknown';
  /** Masters holding slots in that view (a failed master that handed them over is not one). */
  masters: number;
  /** Of those, the ones that answered themselves and that view does not flag as failing. */
  reachable: number;
  /** Slots held by those: all 16,384 means every key can be served. */
  slots: number;
}

/** One node's replies to CLUSTER INFO and CLUSTER NODES (both arrived in time). */
export interface NodeAnswer {
  info: string;
  nodes: string;
}

/** `<id> <ip:port@cport[,hostname]> <flags> <master> <ping> <pong> <epoch> <link> <slot>...` */
const nodeLine = z
  .tuple([
    z.string().regex(/^[0-9a-f]{40}$/),
    z.string().min(1),
    z.string().min(1),
    z.string(),
    z.string(),
    z.string(),
    z.string(),
    z.string(),
  ])
  .rest(z.string().regex(/^\d+(-\d+)?$|^\[.+\]$/));

/** A node as one answering node sees it. */
interface SeenNode {
  id: string;
  /** `host:port` (the cluster bus port and announced hostname left off). */
  address: string;
  flags: string[];
  slots: number;
}

/** `0-5460` or `5461` count; `[5461->-id]` (a slot being moved) is held where it still is. */
function slotCount(field: string): number {
  if (field.startsWith('[')) return 0;
  const [from, to = from] = field.split('-').map(Number);
  return (to as number) - (from as number) + 1;
}

/** The nodes of a CLUSTER NODES reply, or undefined when a line does not read as one. */
export function parseClusterNodes(reply: string): SeenNode[] | undefined {
  const seen: SeenNode[] = [];
  for (const line of reply.split('\n')) {
    if (line.trim() === '') continue;
    const parsed = nodeLine.safeParse(line.trim().split(' '));
    if (!parsed.success) return undefined;
    const [id, address, flags, , , , , , ...slots] = parsed.data;
    seen.push({
      id,
      address: address.split(/[@,]/)[0] as string,
      flags: flags.split(','),
      slots: slots.reduce((sum, f) => sum + slotCount(f), 0),
    });
  }
  return seen;
}

/** A node's own cluster_state from its CLUSTER INFO reply. */
export function clusterStateOf(info: string): string | undefined {
  return /^cluster_state:(\w+)/m.exec(info)?.[1];
}

/** An answer read: the node's own id and role (its `myself` line), its state, and its view. */
interface View {
  self: SeenNode;
  state: string;
  nodes: SeenNode[];
}

function viewOf(answer: NodeAnswer): View | undefined {
  const nodes = parseClusterNodes(answer.nodes);
  const self = nodes?.find((n) => n.flags.includes('myself'));
  const state = clusterStateOf(answer.info);
  return nodes && self && state ? { self, state, nodes } : undefined;
}

/** `fail?` is a node's own suspicion (PFAIL), `fail` the cluster's verdict; `noaddr`: no way to reach it. */
const DOWN_FLAGS = new Set(['fail', 'fail?', 'noaddr', 'handshake']);

function isOwner(node: SeenNode): boolean {
  return node.flags.includes('master') && node.slots > 0;
}

function isFlaggedDown(node: SeenNode): boolean {
  return node.flags.some((f) => DOWN_FLAGS.has(f));
}

/** What one view says: its slot-holding masters, those up, and the slots those hold. */
function judgeView(view: View, answered: ReadonlySet<string>): Omit<ClusterHealth, 'state'> {
  const owners = view.nodes.filter(isOwner);
  const up = owners.filter((n) => answered.has(n.id) && !isFlaggedDown(n));
  return { masters: owners.length, reachable: up.length, slots: up.reduce((sum, n) => sum + n.slots, 0) };
}

/** The masters' readable answers (a replica's own view, or state, does not decide whether keys are served). */
function mastersViews(answers: readonly NodeAnswer[]): View[] {
  return answers.flatMap((a) => viewOf(a) ?? []).filter((v) => v.self.flags.includes('master'));
}

/**
 * Judges a cluster by the answers of the nodes that replied in time. Only masters' answers count
 * (by their own `myself` line: a replica promoted a moment ago is one, though the client may still
 * list it as a replica). While a failover spreads, masters disagree; the least complete of their
 * views is reported, so the answer turns ready once and stays so: a slot counts only when, in every
 * master's view, its owner answered itself and is not flagged failing.
 */
export function judgeCluster(answers: readonly NodeAnswer[]): ClusterHealth {
  const views = mastersViews(answers);
  if (views.length === 0) return { state: 'unknown', masters: 0, reachable: 0, slots: 0 };
  const answered = new Set(views.map((v) => v.self.id));
  const judged = views.map((v) => judgeView(v, answered));
  const least = judged.reduce((a, b) =>
    b.slots < a.slots || (b.slots === a.slots && b.reachable < a.reachable) ? b : a,
  );
  const state = views.every((v) => v.state === 'ok') ? 'ok' : 'fail';
  return { state, ...least };
}

/**
 * Slot owners some answering master sees as up that did not answer themselves, by address: a
 * replica promoted after the client last read the slot map (the client does not know it yet), or a
 * master that hangs.
 */
export function silentOwners(answers: readonly NodeAnswer[]): string[] {
  const views = mastersViews(answers);
  const answered = new Set(views.map((v) => v.self.id));
  const silent = views.flatMap((v) =>
    v.nodes.filter((n) => isOwner(n) && !isFlaggedDown(n) && !answered.has(n.id)).map((n) => n.address),
  );
  return [...new Set(silent)].sort();
}
