import { Cluster, type Redis } from 'ioredis';
import type { RedisConnection } from './connection.ts';

/** Every Redis Cluster has this many hash slots; all must be served for every key to be. */
export const CLUSTER_SLOTS = 16_384;

/** What a cluster says about itself: its masters' cluster_state, and which of its slots are served. */
export interface ClusterHealth {
  /** `ok` when every master that answers says cluster_state:ok; `unknown` when none answers. */
  state: 'ok' | 'fail' | 'unknown';
  /** Masters holding slots in the cluster's slot map (a failed master that handed them over is not one). */
  masters: number;
  /** Of those, the ones that answered. */
  reachable: number;
  /** Slots held by a master that answered: all 16,384 means every key can be served. */
  slots: number;
}

/** Redis as /healthz reports it. */
export interface RedisHealth {
  up: boolean;
  cluster?: ClusterHealth;
}

/** A health probe must answer even when a node hangs (stopped, not dead). */
const PROBE_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), PROBE_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

interface NodeView {
  address: string;
  state: string;
}

function addressOf(node: Redis): string {
  return `${node.options.host}:${node.options.port}`;
}

/** A node's own cluster_state (CLUSTER INFO), or undefined when it does not answer. */
async function viewOf(node: Redis): Promise<NodeView | undefined> {
  try {
    const info = String(await withTimeout(node.cluster('INFO')));
    const state = /cluster_state:(\w+)/.exec(info)?.[1];
    return state ? { address: addressOf(node), state } : undefined;
  } catch {
    return undefined;
  }
}

/** A master as the cluster sees it (one line of CLUSTER NODES): where, whether it is up, its slots. */
interface MasterView {
  address: string;
  up: boolean;
  slots: number;
}

/** `0-5460` or `5461` count; `[5461->-id]` (a slot being moved) is held where it still is. */
function slotCount(field: string): number {
  if (field.startsWith('[')) return 0;
  const [from, to = from] = field.split('-').map(Number);
  return (to as number) - (from as number) + 1;
}

/** The masters holding slots in a CLUSTER NODES reply: failing (`fail`, `fail?`) or unlinked is down. */
function mastersOf(reply: string): MasterView[] {
  return reply
    .split('\n')
    .map((line) => line.trim().split(' '))
    .filter((f) => (f[2] ?? '').split(',').includes('master'))
    .map((f) => ({
      address: (f[1] ?? '').split('@')[0] as string,
      up: !/fail|noaddr/.test(f[2] ?? '') && f[7] === 'connected',
      slots: f.slice(8).reduce((sum, field) => sum + slotCount(field), 0),
    }))
    .filter((m) => m.slots > 0);
}

/** The cluster's masters as the first node that answers sees them (after a failover they agree). */
async function mastersSeenBy(nodes: readonly Redis[]): Promise<MasterView[]> {
  for (const node of nodes) {
    try {
      return mastersOf(String(await withTimeout(node.cluster('NODES'))));
    } catch {
      // Try the next node.
    }
  }
  return [];
}

/**
 * Follows the slots, not the client's node list: a master that failed and whose replica took over
 * holds no slots any more, so it is not counted, and the promoted replica (which the client may not
 * know yet) is taken from the cluster's own view. The cluster is whole when every slot's master is
 * up, and those this client asked answered.
 */
export async function clusterHealth(cluster: Cluster): Promise<ClusterHealth> {
  const nodes = cluster.nodes('all');
  const views = await Promise.all(nodes.map(viewOf));
  const answering = new Map(views.flatMap((v) => (v ? [[v.address, v.state] as const] : [])));
  const silent = new Set(nodes.map(addressOf).filter((a) => !answering.has(a)));
  const masters = await mastersSeenBy(nodes.filter((n) => answering.has(addressOf(n))));
  const reachable = masters.filter((m) => m.up && !silent.has(m.address));
  const slots = reachable.reduce((sum, m) => sum + m.slots, 0);
  const states = [...answering.values()];
  let state: ClusterHealth['state'] = 'unknown';
  if (states.length > 0) state = states.every((s) => s === 'ok') ? 'ok' : 'fail';
  return { state, masters: masters.length, reachable: reachable.length, slots };
}

/**
 * Whether Redis can serve memdoctor now: one server answers PING; a cluster is up when all 16,384
 * slots are held by masters that answer and report cluster_state:ok.
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
    return { up: (await withTimeout(connection.ping())) === 'PONG' };
  } catch {
    return { up: false };
  }
}
