import { Cluster, type Redis } from 'ioredis';
import {
  CLUSTER_SLOTS,
  type ClusterHealth,
  judgeCluster,
  type NodeAnswer,
  silentOwners,
} from './cluster-view.ts';
import type { RedisConnection } from './connection.ts';

export { CLUSTER_SLOTS, type ClusterHealth } from './cluster-view.ts';

/** Redis as /healthz reports it. */
export interface RedisHealth {
  up: boolean;
  cluster?: ClusterHealth;
}

/**
 * A health probe must answer even when a node hangs (stopped, not dead), and within the orchestrator's
 * own probe time-out (deploy/kubernetes: 2 s), so a hung node reads as not ready rather than as no answer.
 */
const PROBE_DEADLINE_MS = 1500;

/**
 * Settles as `promise` does, or rejects once `ms` have passed without it. Node runs expired timers
 * before it polls for I/O: after the event loop was blocked past the deadline, the timer would fire
 * before a reply that arrived meanwhile is read, and a node that answered would count as silent. So
 * the deadline rejects from setImmediate, which runs after that poll: a reply already there wins.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      immediate = setImmediate(() => reject(new Error(`no answer in ${ms} ms`)));
    }, ms);
  });
  return Promise.race([promise, deadline]).finally(() => {
    clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
  });
}

/** A node's CLUSTER INFO and CLUSTER NODES, sent together; undefined unless both came back in time. */
async function answerOf(node: Redis, ms: number): Promise<NodeAnswer | undefined> {
  try {
    const replies = await withDeadline(node.pipeline().cluster('INFO').cluster('NODES').exec(), ms);
    const [info, nodes] = (replies ?? []).map(([error, reply]) => (error ? undefined : reply));
    return typeof info === 'string' && typeof nodes === 'string' ? { info, nodes } : undefined;
  } catch {
    return undefined;
  }
}

/** Asks every node the client knows, and has not asked yet, at once. */
async function askNodes(cluster: Cluster, asked: Set<Redis>, ms: number): Promise<NodeAnswer[]> {
  const nodes = cluster.nodes('all').filter((n) => !asked.has(n));
  for (const node of nodes) asked.add(node);
  const answers = await Promise.all(nodes.map((node) => answerOf(node, ms)));
  return answers.filter((a) => a !== undefined);
}

/** Has the client read the slot map again (it drops a dead master, but learns its successor only so). */
function refreshSlots(cluster: Cluster): Promise<void> {
  return new Promise((resolve) => cluster.refreshSlotsCache(() => resolve()));
}

/**
 * Asks every node the client knows at once, and judges by the masters' answers (cluster-view.ts):
 * ready only when every master that answered says cluster_state:ok and, in each of their views,
 * every slot's owner answered itself and is not flagged failing. When a view names an owner that
 * looks up but was not heard from (a replica promoted since the client read the slot map), the
 * client reads the slot map again and the nodes it learns of are asked too.
 */
export async function clusterHealth(cluster: Cluster): Promise<ClusterHealth> {
  const started = performance.now();
  const left = () => PROBE_DEADLINE_MS - (performance.now() - started);
  const asked = new Set<Redis>();
  const answers = await askNodes(cluster, asked, PROBE_DEADLINE_MS);
  // Within the one deadline: after a node that hangs there is no time left, and no need (it stays silent).
  if (silentOwners(answers).length > 0 && left() > 0) {
    await withDeadline(refreshSlots(cluster), left()).catch(() => undefined);
    if (left() > 0) answers.push(...(await askNodes(cluster, asked, left())));
  }
  return judgeCluster(answers);
}

/**
 * Whether Redis can serve memdoctor now: one server answers PING; a cluster is up when all 16,384
 * slots are held by masters that answer and report cluster_state:ok, as every master sees it.
 */
export async function redisHealth(connection: RedisConnection): Promise<RedisHealth> {
  if (connection instanceof Cluster) {
    const cluster = await clusterHealth(connection);
    return {
      up: cluster.state === 'ok' && cluster.slots === CLUSTER_SLOTS,
      cluster,
    };
  }
  try {
    return { up: (await withDeadline(connection.ping(), PROBE_DEADLINE_MS)) === 'PONG' };
  } catch {
    return { up: false };
  }
}
