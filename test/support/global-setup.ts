import type { TestProject } from 'vitest/node';
import { redisServerMissing, startRedisCluster } from './redis-servers.ts';

/**
 * Once per test run: a real 3-master Redis Cluster on free loopback ports, for the suites that run
 * against a cluster (test/support/cluster.ts). Stopped by PID when the run ends, or when the
 * process exits early. Without redis-server those suites are skipped, saying why.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const missing = redisServerMissing();
  if (missing) {
    project.provide('redisCluster', { skipped: `no Redis Cluster: ${missing}` });
    return async () => {};
  }
  const cluster = await startRedisCluster();
  const killNow = () => {
    for (const server of cluster.servers) server.stopNow();
  };
  process.once('exit', killNow);
  project.provide('redisCluster', { nodes: cluster.nodes.join(',') });
  return async () => {
    process.off('exit', killNow);
    await cluster.stop();
  };
}
