import { WebClient } from '@slack/web-api';
import type { Redis } from 'ioredis';
import { MemoryCaseStore } from '../../../src/cases/index.ts';
import type { ConnectorsConfig } from '../../../src/connectors/config.ts';
import { MemoryEventDedupe } from '../../../src/dedupe/event-dedupe.ts';
import { DEFAULT_CASE_LIMITS } from '../../../src/engine/case/index.ts';
import { RedisIncidentQueue } from '../../../src/incidents/redis.ts';
import { IncidentWorker } from '../../../src/incidents/worker.ts';
import { createLogger } from '../../../src/log.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../../src/playbooks/load.ts';
import { connectRedis } from '../../../src/redis/connect.ts';
import { alertHandler } from '../../../src/slack/alert-handler.ts';
import type { SlackDeps } from '../../../src/slack/deps.ts';
import { OncallPolicy } from '../../../src/slack/oncall.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../../src/walkthrough/index.ts';
import { deletePrefix, randomPrefix } from '../../support/redis.ts';
import { FakeSlack, type StoredMessage } from './fake-slack.ts';
import { BOT_TOKEN, LogSink, waitFor } from './harness.ts';

export const ALERT_CHANNEL = 'C0ALERTS';
const PLAYBOOKS = loadPlaybooks(PLAYBOOKS_DIR);

/**
 * An alert's way after `accept`, on the real Redis (a prefix of its own) and the fake Slack: the
 * app's dependencies with the shipped playbooks and the given connectors, a queue, a worker that
 * retries at once (the test does not wait out backoff) and records the delays it asked for.
 */
export async function alertRig(connectors: ConnectorsConfig) {
  const fake = new FakeSlack(BOT_TOKEN);
  await fake.start();
  const logs = new LogSink();
  const deps: SlackDeps = {
    settings: {
      botToken: BOT_TOKEN,
      maxUploadBytes: 1 << 20,
      maxExpandedBytes: 1 << 23,
      fileHosts: [],
      allowHttpLoopback: true,
    },
    playbooks: PLAYBOOKS,
    dedupe: new MemoryEventDedupe(),
    walkthroughs: new WalkthroughService({ store: new MemoryWalkthroughStore() }),
    oncall: new OncallPolicy([], undefined),
    log: createLogger('debug', logs),
    health: async () => ({ ok: true, store: 'memory', playbooks: PLAYBOOKS.length }),
    connectors,
    cases: { store: new MemoryCaseStore(), limits: DEFAULT_CASE_LIMITS },
  };
  // As the Slack tests' client: a 429 comes back as an error carrying Retry-After.
  const client = new WebClient(BOT_TOKEN, {
    slackApiUrl: fake.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
  const prefix = randomPrefix();
  const connections: Redis[] = [];

  async function replica(consumer: string, leaseMs = 60_000) {
    const redis = await connectRedis('redis://127.0.0.1:6379');
    connections.push(redis);
    const queue = new RedisIncidentQueue(redis, { prefix, leaseMs });
    const delays: number[] = [];
    const later = queue.later.bind(queue);
    queue.later = async (delivery, delayMs, attempts) => {
      delays.push(delayMs);
      return later(delivery, 0, attempts);
    };
    const handle = alertHandler(deps, client, { incidents: queue, workspace: 'T1', owner: 'UBOT0001' });
    const worker = new IncidentWorker(queue, handle, { consumer, leaseMs, log: deps.log });
    return { queue, worker, delays };
  }

  return {
    fake,
    deps,
    client,
    logs,
    replica,
    /** Runs a replica until nothing is left to do. */
    async drain(r: Awaited<ReturnType<typeof replica>>, ms?: number) {
      await waitFor(async () => {
        await r.worker.runOnce();
        return (await r.queue.backlog()) === 0;
      }, ms);
    },
    roots: () => fake.messages.filter((m) => m.channel === ALERT_CHANNEL && !m.thread_ts),
    replies: (root: StoredMessage) => fake.messages.filter((m) => m.thread_ts === root.ts),
    async stop() {
      await fake.stop();
      const [first] = connections;
      if (first) await deletePrefix(first, prefix);
      for (const redis of connections) redis.disconnect();
    },
  };
}

/** A message's blocks as text, to search. */
export const textOf = (m: StoredMessage) => JSON.stringify(m.blocks);

/** The value a test expects to be there. */
export function the<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value');
  return value;
}
