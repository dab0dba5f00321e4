import { type Cluster, Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterHealth, redisHealth, withDeadline } from '../../src/redis/health.ts';
import { CLUSTER_NODES, CLUSTER_SKIPPED, newClusterClient } from '../support/cluster.ts';
import { TEST_REDIS_URL } from '../support/redis.ts';

/** Blocks this thread (the event loop) for `ms`, as a long synchronous task would. */
function stallEventLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

// Longer than the probe's deadline (1.5 s) and than the 2 s deadline it had before.
const STALL_MS = 2200;

describe('a health probe after the event loop was blocked past its deadline', () => {
  const redis = new Redis(TEST_REDIS_URL);
  afterAll(() => redis.disconnect());

  it('counts the reply that arrived during the stall, not the late deadline', async () => {
    await redis.ping();
    const probe = redisHealth(redis);
    stallEventLoop(STALL_MS);
    expect(await probe).toEqual({ up: true });
  });

  it('still gives up on an answer that does not come', async () => {
    const started = Date.now();
    await expect(withDeadline(new Promise(() => undefined), 50)).rejects.toThrow('no answer in 50 ms');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe.skipIf(!CLUSTER_NODES)(`a cluster health probe after a stalled event loop${CLUSTER_SKIPPED}`, () => {
  let cluster: Cluster;
  afterAll(() => cluster?.disconnect());

  it('counts every node’s CLUSTER INFO and CLUSTER NODES that arrived during the stall', async () => {
    cluster = newClusterClient();
    const whole = { state: 'ok', masters: 3, reachable: 3, slots: 16_384 };
    // The first probe connects to every node; the second is sent on open connections, then the loop stalls.
    await expect.poll(() => clusterHealth(cluster), { timeout: 20_000 }).toEqual(whole);
    const probe = clusterHealth(cluster);
    stallEventLoop(STALL_MS);
    expect(await probe).toEqual(whole);
  });
});
