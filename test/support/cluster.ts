import { randomBytes } from 'node:crypto';
import { Cluster } from 'ioredis';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Redis Cluster (test/support/global-setup.ts): its seed nodes, or why there is none. */
    redisCluster: { nodes: string } | { skipped: string };
  }
}

const provided = inject('redisCluster');

/** `127.0.0.1:p1,127.0.0.1:p2,...`: the value REDIS_CLUSTER_NODES takes; undefined when skipped. */
export const CLUSTER_NODES: string | undefined = 'nodes' in provided ? provided.nodes : undefined;

/** Why the cluster suites are skipped, for their titles; empty when they run. */
export const CLUSTER_SKIPPED: string = 'skipped' in provided ? ` (skipped: ${provided.skipped})` : '';

/** A client of the run's cluster (throws when there is none: guard suites with CLUSTER_NODES). */
export function newClusterClient(): Cluster {
  if (!CLUSTER_NODES) throw new Error(`no Redis Cluster in this run${CLUSTER_SKIPPED}`);
  const nodes = CLUSTER_NODES.split(',').map((n) => {
    const [host, port] = n.split(':');
    return { host: host as string, port: Number(port) };
  });
  return new Cluster(nodes);
}

/** Deletes every key under a prefix on every master of the cluster. */
export async function deleteClusterPrefix(cluster: Cluster, prefix: string): Promise<void> {
  for (const node of cluster.nodes('master')) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      for (const key of keys) await node.del(key);
    } while (cursor !== '0');
  }
}

/** A random key prefix for one suite. */
export function clusterPrefix(): string {
  return `mdcluster-${randomBytes(6).toString('hex')}`;
}
