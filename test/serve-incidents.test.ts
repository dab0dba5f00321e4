import { WebClient } from '@slack/web-api';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { MemoryEventDedupe } from '../src/dedupe/event-dedupe.ts';
import { createLogger } from '../src/log.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../src/playbooks/load.ts';
import { connectRedis } from '../src/redis/connect.ts';
import type { SlackService } from '../src/serve.ts';
import { alertIntakeOf, openIncidents } from '../src/serve-incidents.ts';
import type { SlackDeps } from '../src/slack/deps.ts';
import { SlackMetrics } from '../src/slack/metrics.ts';
import { OncallPolicy } from '../src/slack/oncall.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../src/walkthrough/index.ts';
import { routedAlert } from './incidents/alerts.ts';
import { FakeSlack } from './slack/support/fake-slack.ts';
import { BOT_TOKEN, LogSink, waitFor } from './slack/support/harness.ts';
import { deletePrefix, randomPrefix } from './support/redis.ts';

const PLAYBOOKS = loadPlaybooks(PLAYBOOKS_DIR);

/** What openIncidents reads of the Slack service: its client, dependencies and Redis connection. */
function serviceOn(fake: FakeSlack, logs: LogSink, redis?: Redis): SlackService {
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
    metrics: new SlackMetrics(),
  };
  const client = new WebClient(BOT_TOKEN, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
  return { app: { client }, deps, ...(redis ? { redis } : {}) } as unknown as SlackService;
}

describe('openIncidents (serve with MEMDOCTOR_ALERTS)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function fakeSlack() {
    const fake = new FakeSlack(BOT_TOKEN);
    await fake.start();
    cleanups.push(() => fake.stop());
    return fake;
  }

  it('without Redis: a memory intake, a warning, and the worker posts the thread of an accepted alert', async () => {
    const fake = await fakeSlack();
    const logs = new LogSink();
    const service = serviceOn(fake, logs);
    const incidents = openIncidents(service, loadConfig({}), service.deps.log);
    cleanups.push(() => incidents.stop());
    expect(incidents.queue.kind).toBe('memory');
    expect(await incidents.intake.accept({ ...routedAlert(), checks: [] })).toBe('queued');
    // Done: off the queue, which happens only after the thread is posted and counted.
    await waitFor(async () => (await incidents.queue.backlog()) === 0);
    expect(fake.messages.filter((m) => m.channel === 'C0ALERTS')).toHaveLength(2);
    expect(logs.raw).toContain('accepted alerts wait in this process only');
    const scrape = await service.deps.metrics?.registry.metrics();
    expect(scrape).toMatch(/memdoctor_alerts_processed_total\{change="opened"\} 1/);
    expect(scrape).toMatch(/memdoctor_alert_backlog 0/);
    expect(fake.rejections).toEqual([]);
  });

  it('with the app’s Redis: a Redis intake under the configured prefix', async () => {
    const fake = await fakeSlack();
    const redis = await connectRedis('redis://127.0.0.1:6379');
    const prefix = randomPrefix();
    cleanups.push(async () => {
      await deletePrefix(redis, prefix);
      redis.disconnect();
    });
    const service = serviceOn(fake, new LogSink(), redis);
    const incidents = openIncidents(
      service,
      loadConfig({ MEMDOCTOR_REDIS_PREFIX: prefix }),
      service.deps.log,
    );
    cleanups.push(() => incidents.stop());
    expect(incidents.queue.kind).toBe('redis');
    await incidents.intake.accept({ ...routedAlert(), checks: [] });
    await waitFor(async () => (await incidents.queue.backlog()) === 0 && fake.messages.length === 2);
    expect(await redis.exists(`${prefix}:{alerts}:stream`)).toBe(1);
  });

  it('as startSlack’s openIntake: the app’s stop stops the worker first, then the app', async () => {
    const fake = await fakeSlack();
    const logs = new LogSink();
    const service = serviceOn(fake, logs);
    const stoppedFirst: boolean[] = [];
    service.stop = async () => {
      stoppedFirst.push(logs.lines.some((l) => l.msg === 'alert worker stopped'));
    };
    const intake = alertIntakeOf(service, loadConfig({}), service.deps.log);
    await waitFor(() => logs.lines.some((l) => l.msg === 'alert worker started'));
    expect(logs.lines.some((l) => l.msg === 'alert worker stopped')).toBe(false);
    await service.stop();
    expect(stoppedFirst).toEqual([true]);
    expect(await intake.accept({ ...routedAlert(), checks: [] })).toBe('queued');
  });

  it('Slack failing auth.test at start: asked again, and the alert taken meanwhile is posted', async () => {
    const fake = await fakeSlack();
    // Slack's transient error, answered as ok:false, which the client does not retry itself.
    fake.failNext('auth.test', 'internal_error');
    const logs = new LogSink();
    const service = serviceOn(fake, logs);
    const incidents = openIncidents(service, loadConfig({}), service.deps.log);
    cleanups.push(() => incidents.stop());
    expect(await incidents.intake.accept({ ...routedAlert(), checks: [] })).toBe('queued');
    await waitFor(async () => (await incidents.queue.backlog()) === 0);
    expect(fake.callsTo('auth.test').length).toBeGreaterThanOrEqual(2);
    expect(logs.raw).toContain('alert worker not started yet: auth.test failed');
    expect(fake.messages.filter((m) => m.channel === 'C0ALERTS')).toHaveLength(2);
  });

  it('stopped before Slack answered: nothing is started after', async () => {
    const fake = await fakeSlack();
    fake.failNext('auth.test', 'internal_error');
    const logs = new LogSink();
    const service = serviceOn(fake, logs);
    const incidents = openIncidents(service, loadConfig({}), service.deps.log);
    await waitFor(() => logs.raw.includes('auth.test failed'));
    await incidents.stop();
    expect(await incidents.intake.accept({ ...routedAlert(), checks: [] })).toBe('queued');
    expect(fake.callsTo('auth.test')).toHaveLength(1);
    expect(logs.lines.some((l) => l.msg === 'alert worker started')).toBe(false);
  });
});
