import { randomBytes } from 'node:crypto';
import { type Cluster, Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLlmAssist } from '../../src/llm/assist.ts';
import { selectLines } from '../../src/llm/select.ts';
import { type LlmStore, MemoryLlmStore, RedisLlmStore } from '../../src/llm/store.ts';
import { suggestPlaybook } from '../../src/llm/triage.ts';
import { RedisKeys } from '../../src/redis/keys.ts';
import { CLUSTER_NODES, CLUSTER_SKIPPED, deleteClusterPrefix, newClusterClient } from '../support/cluster.ts';
import { FakeOpenAI, responseJson } from './fake-openai.ts';
import { logSink, PLAYBOOKS, testDeps } from './helpers.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
let redis: Redis;
const prefixes: string[] = [];

function newPrefix(): string {
  const prefix = `test-llm-${randomBytes(6).toString('hex')}`;
  prefixes.push(prefix);
  return prefix;
}

beforeAll(() => {
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
});

const cluster = CLUSTER_NODES ? newClusterClient() : undefined;
afterAll(async () => {
  if (!cluster) return;
  for (const prefix of prefixes) await deleteClusterPrefix(cluster, prefix);
  await cluster.quit();
});

/** What the cluster stores logged: one that fell back to memory would have hidden a cluster error. */
const clusterLogs: ReturnType<typeof logSink>[] = [];
function clusterStore(): LlmStore {
  const sink = logSink();
  clusterLogs.push(sink);
  return new RedisLlmStore(cluster as Cluster, sink.log, newPrefix());
}

const STORES: Array<[string, () => LlmStore]> = [
  ['memory', () => new MemoryLlmStore()],
  ['redis', () => new RedisLlmStore(redis, logSink().log, newPrefix())],
];
if (cluster) STORES.push(['redis cluster', clusterStore]);
else describe.skip(`LlmStore contract: redis cluster${CLUSTER_SKIPPED}`, () => {});

afterEach(() => {
  expect(clusterLogs.flatMap((s) => s.lines).map((l) => l.msg)).toEqual([]);
});

describe.each(STORES)('LlmStore contract: %s', (_name, make) => {
  it('returns what was set, and nothing for an unknown hash', async () => {
    const store = make();
    await store.set('abc', '{"x":1}', 60);
    expect(await store.get('abc')).toBe('{"x":1}');
    expect(await store.get('nope')).toBeUndefined();
  });

  it('counts requests per workspace and per window', async () => {
    const store = make();
    const t = 1_764_400_000_000;
    expect(await store.hit('T1', 3600, t)).toBe(1);
    expect(await store.hit('T1', 3600, t + 1000)).toBe(2);
    expect(await store.hit('T2', 3600, t)).toBe(1);
    expect(await store.hit('T1', 3600, t + 3600 * 1000)).toBe(1);
  });
});

describe('MemoryLlmStore', () => {
  it('keeps at most maxEntries answers, dropping the oldest', async () => {
    const store = new MemoryLlmStore(2);
    await store.set('a', '1', 60);
    await store.set('b', '2', 60);
    await store.set('c', '3', 60);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('c')).toBe('3');
  });

  it('keeps a recently read answer over older unread ones', async () => {
    const store = new MemoryLlmStore(2);
    await store.set('a', '1', 60);
    await store.set('b', '2', 60);
    expect(await store.get('a')).toBe('1');
    await store.set('c', '3', 60);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toBe('1');
  });

  it('forgets an answer after its TTL, and keeps none given no time', async () => {
    // The clock starts past 0: lru-cache reads a start time of 0 as "no TTL".
    let now = 1_000;
    const store = new MemoryLlmStore(10, () => now);
    await store.set('a', '1', 60);
    now += 59_000;
    expect(await store.get('a')).toBe('1');
    now += 2_000;
    expect(await store.get('a')).toBeUndefined();
    await store.set('b', '2', -1);
    expect(await store.get('b')).toBeUndefined();
  });
});

describe('RedisLlmStore', () => {
  it('sets a TTL on cached answers and on rate counters', async () => {
    const prefix = newPrefix();
    const store = new RedisLlmStore(redis, logSink().log, prefix);
    await store.set('h1', 'v', 120);
    await store.hit('T1', 3600);
    const cacheTtl = await redis.ttl(new RedisKeys(prefix).modelAnswer('h1'));
    const [rateKey] = await redis.keys(`${prefix}:{llm:T1}:rate:*`);
    expect(cacheTtl).toBeGreaterThan(0);
    expect(cacheTtl).toBeLessThanOrEqual(120);
    expect(await redis.ttl(rateKey ?? 'missing')).toBeGreaterThan(0);
  });

  it('falls back to memory, with a logged warning, when Redis is unreachable', async () => {
    const dead = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    dead.on('error', () => {});
    const sink = logSink();
    const store = new RedisLlmStore(dead, sink.log, newPrefix());
    await store.set('h', 'v', 60);
    expect(await store.get('h')).toBe('v');
    expect(await store.hit('T1', 3600)).toBe(1);
    expect(sink.lines.filter((l) => String(l.msg).includes('using the in-process store'))).toHaveLength(3);
    dead.disconnect();
  });
});

describe('answer cache in real Redis', () => {
  let fake: FakeOpenAI;
  let baseURL: string;
  beforeAll(async () => {
    fake = new FakeOpenAI();
    baseURL = await fake.start();
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(() => {
    fake.reset();
  });

  it('a second process with the same input gets the answer from Redis, not the model', async () => {
    fake.reply(
      responseJson({
        playbook: 'spark-heap-oom',
        confidence: 0.7,
        rationale: 'Heap is full.',
        evidence: [{ line: 1, quote: 'Java heap space' }],
      }),
    );
    const prefix = newPrefix();
    const request = {
      workspace: 'T1',
      playbooks: PLAYBOOKS,
      diagnoses: [],
      selection: selectLines('java.lang.OutOfMemoryError: Java heap space'),
    };
    const first = testDeps(baseURL, {}, new RedisLlmStore(redis, logSink().log, prefix));
    const second = testDeps(baseURL, {}, new RedisLlmStore(redis, logSink().log, prefix));
    const a = await suggestPlaybook(first.deps, request);
    const b = await suggestPlaybook(second.deps, request);
    expect(a.value).toEqual(b.value);
    expect(b.value === undefined ? 'no answer' : b.cached).toBe(true);
    expect(fake.requests).toHaveLength(1);
    const keys = await redis.keys(`${prefix}:{llm:*}:cache`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/:\{llm:[0-9a-f]{64}\}:cache$/);
  });
});

describe('createLlmAssist with REDIS_URL', () => {
  it('opens its own connection, caches there under the prefix, and closes it', async () => {
    const fake = new FakeOpenAI();
    const baseURL = await fake.start();
    fake.reply(responseJson({ explanation: 'Heap full.' }));
    const prefix = newPrefix();
    const config = loadConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseURL, REDIS_URL });
    const assist = createLlmAssist(config, { keyPrefix: prefix, log: logSink().log });
    const playbook = PLAYBOOKS[0];
    if (!assist || !playbook) throw new Error('assist and playbook expected');
    const diagnosis = {
      playbook: playbook.id,
      title: playbook.title,
      confidence: 0.9,
      cause: null,
      evidence: [{ line: 1, text: 'java.lang.OutOfMemoryError: Java heap space' }],
      facts: {},
      actions: [],
    };
    const outcome = await assist.explain({ workspace: 'T1', diagnosis, playbook });
    expect(outcome.value).toBe('Heap full.');
    expect(await redis.keys(`${prefix}:{llm:*}:cache`)).toHaveLength(1);
    expect(await redis.keys(`${prefix}:{llm:T1}:rate:*`)).toHaveLength(1);
    await assist.close();
    await fake.close();
  });
});

describe.skipIf(!CLUSTER_NODES)(`createLlmAssist with REDIS_CLUSTER_NODES${CLUSTER_SKIPPED}`, () => {
  it('opens its own cluster connection and caches and counts there', async () => {
    const fake = new FakeOpenAI();
    const baseURL = await fake.start();
    fake.reply(responseJson({ explanation: 'Heap full.' }));
    const prefix = newPrefix();
    const config = loadConfig({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: baseURL,
      REDIS_CLUSTER_NODES: CLUSTER_NODES,
    });
    const sink = logSink();
    const assist = createLlmAssist(config, { keyPrefix: prefix, log: sink.log });
    const playbook = PLAYBOOKS[0];
    if (!assist || !playbook || !cluster) throw new Error('assist, playbook and cluster expected');
    const diagnosis = {
      playbook: playbook.id,
      title: playbook.title,
      confidence: 0.9,
      cause: null,
      evidence: [{ line: 1, text: 'java.lang.OutOfMemoryError: Java heap space' }],
      facts: {},
      actions: [],
    };
    const request = { workspace: 'T1', diagnosis, playbook };
    expect((await assist.explain(request)).value).toBe('Heap full.');
    expect((await assist.explain(request)).value).toBe('Heap full.');
    expect(fake.requests).toHaveLength(1);
    const keys = new RedisKeys(prefix);
    const window = Math.floor(Date.now() / 1000 / 3600);
    expect(await cluster.get(keys.modelRequests('T1', window))).toBe('1');
    expect(sink.lines.filter((l) => String(l.msg).includes('in-process store'))).toEqual([]);
    await assist.close();
    await fake.close();
  });
});
