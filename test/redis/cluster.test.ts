import { type Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { ErrorCode, MemdoctorError, StoreProblem, StoreUnavailableError } from '../../src/errors.ts';
import { RedisLlmStore } from '../../src/llm/store.ts';
import { connectCluster, connectRedis } from '../../src/redis/connect.ts';
import { storeSettings } from '../../src/setup/walkthroughs.ts';
import { openStore, type WalkthroughRecord } from '../../src/walkthrough/index.ts';
import { RedisWalkthroughStore } from '../../src/walkthrough/store/redis.ts';
import { logSink } from '../llm/helpers.ts';
import {
  CLUSTER_NODES,
  CLUSTER_SKIPPED,
  clusterPrefix,
  deleteClusterPrefix,
  newClusterClient,
} from '../support/cluster.ts';
import { newRecord, play } from '../walkthrough/helpers.ts';

async function failure(promise: Promise<unknown>): Promise<MemdoctorError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof MemdoctorError) return error;
  throw new Error(`expected a MemdoctorError, got ${String(error)}`);
}

/** A started walkthrough in another conversation (and so, most likely, another slot) each time. */
function recordIn(conversation: string, thread?: string): WalkthroughRecord {
  const base = newRecord();
  const record = {
    ...base,
    id: `T9-${conversation}-abc123`,
    workspace: 'T9',
    conversation,
    ...(thread ? { thread } : {}),
  };
  return play(record, [{ type: 'start' }]);
}

describe.skipIf(!CLUSTER_NODES)(`memdoctor on a real Redis Cluster${CLUSTER_SKIPPED}`, () => {
  // Opened only when the suite runs: without a cluster its body is still collected.
  let cluster: Cluster;
  beforeAll(() => {
    cluster = newClusterClient();
  });
  const prefix = clusterPrefix();
  const [firstNode = ''] = (CLUSTER_NODES ?? '').split(',');
  afterAll(async () => {
    await deleteClusterPrefix(cluster, prefix);
    await cluster.quit();
  });

  it('sends every Lua script keys that CLUSTER KEYSLOT puts in one slot', async () => {
    const used: string[][] = [];
    const store = new RedisWalkthroughStore(cluster, { prefix });
    const llm = new RedisLlmStore(cluster, logSink().log, prefix);
    // The scripts are commands defined on the connection; record the keys of every call.
    const commands = cluster as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    for (const [name, keyCount] of [
      ['createWalkthrough', 4],
      ['replaceWalkthrough', 4],
      ['countModelRequest', 1],
    ] as const) {
      const original = commands[name] as (...args: unknown[]) => Promise<unknown>;
      commands[name] = (...args: unknown[]) => {
        used.push(args.slice(0, keyCount).map(String));
        return original.apply(cluster, args);
      };
    }
    for (const [conversation, thread] of [
      ['C1', undefined],
      ['C2', '1700000000.000100'],
      ['G77', '1.2'],
    ]) {
      const started = recordIn(conversation as string, thread);
      await store.create(started);
      await store.replace(play(started, [{ type: 'choose', answer: 'heap' }]), started.version);
    }
    await llm.hit('T9', 3600);
    expect(used).toHaveLength(7);
    const slotsPerCall = await Promise.all(
      used.map(async (keys) => new Set(await Promise.all(keys.map((k) => cluster.cluster('KEYSLOT', k))))),
    );
    expect(slotsPerCall.map((slots) => slots.size)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    const slotOfEach = slotsPerCall.map((slots) => [...slots][0]);
    expect(new Set(slotOfEach).size).toBeGreaterThan(2);
  });

  it('opens the configured cluster from REDIS_CLUSTER_NODES', async () => {
    const store = await openStore(
      storeSettings(loadConfig({ REDIS_CLUSTER_NODES: CLUSTER_NODES, MEMDOCTOR_REDIS_PREFIX: prefix })),
    );
    const started = recordIn('C40');
    await store.create(started);
    expect(await store.get(started.id)).toEqual(started);
    await store.close();
  });

  it('refuses a cluster node given as REDIS_URL, naming REDIS_CLUSTER_NODES instead', async () => {
    const error = await failure(connectRedis(`redis://${firstNode}`));
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).problem).toBe(StoreProblem.WrongMode);
    expect(error.message).toContain('cluster mode (cluster_enabled:1)');
    expect(error.message).toContain(
      `REDIS_URL=redis://${firstNode} is a node of a Redis Cluster: set REDIS_CLUSTER_NODES=host:port,host:port`,
    );
  });

  it('reports MOVED from a one-server client as the wrong setting, not as "check that Redis is up"', async () => {
    const single = new Redis(`redis://${firstNode}`);
    const store = new RedisWalkthroughStore(single, { prefix });
    const errors: string[] = [];
    for (const conversation of ['C1', 'C2', 'C3', 'C4', 'C5', 'C6']) {
      const error = await store.create(recordIn(conversation)).then(
        () => undefined,
        (e: unknown) => e,
      );
      if (error instanceof StoreUnavailableError) {
        expect(error.problem).toBe(StoreProblem.WrongMode);
        errors.push(error.message);
      }
    }
    single.disconnect();
    expect(errors.length).toBeGreaterThan(0);
    for (const message of errors) {
      expect(message).toMatch(/^Redis is unavailable: MOVED \d+ 127\.0\.0\.1:\d+\. REDIS_URL=redis:\/\/127/);
      expect(message).toContain('is a node of a Redis Cluster: set REDIS_CLUSTER_NODES');
      expect(message).not.toContain('Check that Redis is up');
    }
  });
});

describe('REDIS_CLUSTER_NODES naming what is not a cluster', () => {
  it('refuses a single Redis server, naming REDIS_URL instead', async () => {
    const error = await failure(connectCluster({ nodes: [{ host: '127.0.0.1', port: 6379 }], tls: false }));
    expect(error.code).toBe(ErrorCode.StoreUnavailable);
    expect((error as StoreUnavailableError).problem).toBe(StoreProblem.WrongMode);
    expect(error.message).toMatch(
      /^cannot reach the Redis Cluster at REDIS_CLUSTER_NODES=127\.0\.0\.1:6379 \(ERR This instance has cluster support disabled\)\. REDIS_CLUSTER_NODES=127\.0\.0\.1:6379 names a Redis server that is not in cluster mode: set REDIS_URL to it and unset REDIS_CLUSTER_NODES\./,
    );
  });

  it('fails fast when no seed answers, hiding the password', async () => {
    const error = await failure(
      connectCluster(
        { nodes: [{ host: '127.0.0.1', port: 1 }], password: 'secret', tls: false },
        { connectTimeoutMs: 500 },
      ),
    );
    expect((error as StoreUnavailableError).problem).toBe(StoreProblem.Unreachable);
    expect(error.message).toMatch(
      /^cannot reach the Redis Cluster at REDIS_CLUSTER_NODES=redis:\/\/:\*\*\*@127\.0\.0\.1:1 \(.+\)\. Start the Redis Cluster there, correct REDIS_CLUSTER_NODES, or unset it/,
    );
    expect(error.message).not.toContain('secret');
  });
});
