import { Cluster, type Redis } from 'ioredis';
import type { RedisConnection } from './connect.ts';

/** What a cluster says about itself: CLUSTER INFO's cluster_state, and how many masters answer. */
export interface ClusterHealth {
  /** `ok` when every master that answers says cluster_state:ok; `unknown` when none answers. */
  state: 'ok' | 'fail' | 'unknown';
  masters: number;
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

/** A master's own cluster_state, or undefined when it does not answer. */
async function stateOf(node: Redis): Promise<string | undefined> {
  try {
    const info = String(await withTimeout(node.cluster('INFO')));
    return /cluster_state:(\w+)/.exec(info)?.[1];
  } catch {
    return undefined;
  }
}

async function clusterHealth(cluster: Cluster): Promise<ClusterHealth> {
  const masters = cluster.nodes('master');
  const states = (await Promise.all(masters.map(stateOf))).filter((s) => s !== undefined);
  let state: ClusterHealth['state'] = 'unknown';
  if (states.length > 0) state = states.every((s) => s === 'ok') ? 'ok' : 'fail';
  return { state, masters: masters.length, reachable: states.length };
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
