import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { buildDeps } from '../../src/serve.ts';
import { TEST_REDIS_URL } from '../support/redis.ts';
import { BOT_TOKEN, LogSink, startHarness, testPlaybooks } from './support/harness.ts';
import { testWalkthroughs } from './support/walkthroughs.ts';

const config = loadConfig({ SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: 'secret-for-health-test' });
const log = createLogger('silent', new LogSink());
const up = new Redis(TEST_REDIS_URL);
// Nothing listens on port 1: every command fails at once.
const down = new Redis('redis://127.0.0.1:1', {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  retryStrategy: () => null,
});
down.on('error', () => undefined);

afterAll(() => {
  up.disconnect();
  down.disconnect();
});

describe('readiness', () => {
  const resources = (redis?: Redis) => ({
    playbooks: testPlaybooks(),
    walkthroughs: testWalkthroughs(),
    ...(redis ? { redis } : {}),
  });

  it('is ready with Redis up, and says which store it uses', async () => {
    expect(await buildDeps(config, log, resources(up)).health()).toEqual({
      ok: true,
      store: 'redis',
      redis: 'up',
      playbooks: 2,
    });
  });

  it('is not ready when Redis is down', async () => {
    expect(await buildDeps(config, log, resources(down)).health()).toEqual({
      ok: false,
      store: 'redis',
      redis: 'down',
      playbooks: 2,
    });
  });

  it('is ready in memory mode', async () => {
    expect(await buildDeps(config, log, resources()).health()).toMatchObject({ ok: true, store: 'memory' });
  });

  it('answers 503 on /healthz when not ready', async () => {
    const h = await startHarness({
      extend: (deps) => ({
        ...deps,
        health: async () => ({ ok: false, store: 'redis', redis: 'down', playbooks: 2 }),
      }),
    });
    const res = await fetch(`${h.url}/healthz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ redis: 'down' });
    await h.stop();
  });

  it('separates liveness from readiness: not ready while Slack refuses the bot token, still alive', async () => {
    const h = await startHarness();
    const get = async (path: string) => {
      const res = await fetch(`${h.url}${path}`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    expect(await get('/readyz')).toMatchObject({ status: 200, body: { ok: true, slack: 'ok' } });
    await h.stop();

    // Issue 27, item 6: with a rejected token /healthz answered ok.
    const revoked = await startHarness();
    revoked.fake.botTokenRevoked = true;
    const res = await fetch(`${revoked.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ ok: false, store: 'memory', playbooks: 2, slack: 'rejected' });
    const alias = await fetch(`${revoked.url}/healthz`);
    expect(alias.status).toBe(503);
    expect(await alias.json()).toMatchObject({ ok: false, slack: 'rejected' });
    const live = await fetch(`${revoked.url}/livez`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ ok: true });
    await revoked.stop();
  });
});
