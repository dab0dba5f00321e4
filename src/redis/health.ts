import { Cluster, type Redis } from 'ioredis';
import type { RedisConnection } from './connection.ts';

/** What a cluster says about itself: CLUSTER INFO's cluster_state, and how many masters answer. */
export interface ClusterHealth {
  /** `ok` when every master that answers says cluster_state:ok; `unknown` when none answers. */
  state: 'ok' | 'fail' | 'unknown';
  /** Masters serving slots, as the cluster counts them (cluster_size), a dead one included. */
  masters: number;
  /** Masters that answered. */
  reachable: number;
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
  state: string;
  size: number;
}

/** A master's own CLUSTER INFO (cluster_state, cluster_size), or undefined when it does not answer. */
async function viewOf(node: Redis): Promise<NodeView | undefined> {
  try {
    const info = String(await withTimeout(node.cluster('INFO')));
    const state = /cluster_state:(\w+)/.exec(info)?.[1];
    const size = Number(/cluster_size:(\d+)/.exec(info)?.[1] ?? 0);
    return state ? { state, size } : undefined;
  } catch {
    return undefined;
  }
}

/** The client drops a dead master from its pool, so the count of masters comes from the cluster. */
export async function clusterHealth(cluster: Cluster): Promise<ClusterHealth> {
  const known = cluster.nodes('master');
  const views = (await Promise.all(known.map(viewOf))).filter((v) => v !== undefined);
  let state: ClusterHealth['state'] = 'unknown';
  if (views.length > 0) state = views.every((v) => v.state === 'ok') ? 'ok' : 'fail';
  const masters = Math.max(known.length, ...views.map((v) => v.size));
  return { state, masters, reachable: views.length };
}

/**
 * Whether Redis can serve memdoctor now: one server answers PING; a cluster is up when every
 * master answers and reports cluster_state:ok (a missing master leaves its slots unserved).
 */
export async function redisHealth(connection: RedisConnection): Promise<RedisHealth> {
  if (connection instanceof Cluster) {
    const cluster = await clusterHealth(connection);
    return {
      up: cluster.state === 'ok' && cluster.reachable === cluster.masters && cluster.masters > 0,
      cluster,
    };
  }
  try {
    return { up: (await withTimeout(connection.ping())) === 'PONG' };
  } catch {
    return { up: false };
  }
}
