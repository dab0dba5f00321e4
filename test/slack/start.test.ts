import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../cli/spawn-helpers.ts';
import { CLUSTER_NODES, CLUSTER_SKIPPED } from '../support/cluster.ts';
import { repeatedKeys } from '../support/log-keys.ts';
import { deletePrefix, randomPrefix, TEST_REDIS_URL } from '../support/redis.ts';
import { FakeSlack } from './support/fake-slack.ts';
import { BOT_TOKEN, freePort, SIGNING_SECRET, waitFor } from './support/harness.ts';
import { slashCommand } from './support/payloads.ts';
import { SlackSender } from './support/signing.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Running {
  child: ChildProcess;
  port: number;
  stderr: () => string;
}

/** `npm start` as a deployment runs it: node on the built dist/main.js, configured by the environment. */
async function startBot(env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  assertBuilt();
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), LOG_LEVEL: 'debug', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString('utf8');
  });
  return { child, port, stderr: () => err };
}

async function healthz(port: number): Promise<Response | undefined> {
  return fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
}

describe('npm start with Slack credentials', () => {
  const fake = new FakeSlack(BOT_TOKEN);
  const prefix = randomPrefix();
  const redis = new Redis(TEST_REDIS_URL);
  let bot: Running | undefined;

  beforeAll(() => fake.start());
  afterEach(async () => {
    bot?.child.kill('SIGTERM');
    if (bot?.child.exitCode === null) await once(bot.child, 'exit');
  });
  afterAll(async () => {
    await fake.stop();
    await deletePrefix(redis, prefix);
    redis.disconnect();
  });

  const env = () => ({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    MEMDOCTOR_ALLOW_HTTP_LOOPBACK: 'true',
  });

  it('serves signed slash commands over HTTP, reports Redis in /healthz, and keeps secrets out of its logs', async () => {
    bot = await startBot({ ...env(), REDIS_URL: TEST_REDIS_URL, MEMDOCTOR_REDIS_PREFIX: prefix });
    const running = bot;
    const health = await waitFor(async () => (await healthz(running.port))?.ok).then(() =>
      healthz(running.port),
    );
    expect(await health?.json()).toMatchObject({ ok: true, store: 'redis', redis: 'up' });
    const sender = new SlackSender(`http://127.0.0.1:${running.port}/slack/events`, SIGNING_SECRET);
    const res = await sender.command(
      slashCommand('list', { user: 'U1', channel: 'C1', responseUrl: fake.responseUrl }),
    );
    expect(res.status).toBe(200);
    await waitFor(() => fake.responses.find((r) => JSON.stringify(r.blocks).includes('Known problems')));
    const lines = running.stderr().trim().split('\n');
    expect(lines.every((l) => JSON.parse(l).app === 'memdoctor')).toBe(true);
    // Each key once per line: pino repeated a nested child's "module" ("slack", then "bolt").
    expect(lines.flatMap(repeatedKeys)).toEqual([]);
    expect(lines.some((l) => JSON.parse(l).component === 'bolt')).toBe(true);
    expect(running.stderr()).toContain('memdoctor Slack app started');
    expect(running.stderr()).not.toContain(BOT_TOKEN);
    expect(running.stderr()).not.toContain(SIGNING_SECRET);
  });

  it.skipIf(!CLUSTER_NODES)(
    `reports the Redis Cluster named by REDIS_CLUSTER_NODES in /healthz${CLUSTER_SKIPPED}`,
    async () => {
      bot = await startBot({
        ...env(),
        REDIS_CLUSTER_NODES: CLUSTER_NODES ?? '',
        MEMDOCTOR_REDIS_PREFIX: prefix,
      });
      const running = bot;
      await waitFor(async () => (await healthz(running.port))?.ok);
      expect(await (await healthz(running.port))?.json()).toMatchObject({
        ok: true,
        store: 'redis',
        redis: 'up',
        cluster: { state: 'ok', masters: 3, reachable: 3, slots: 16_384 },
      });
      expect(running.stderr()).not.toContain('REDIS_URL is not set');
    },
  );

  it('stops with a message naming both settings when REDIS_URL and REDIS_CLUSTER_NODES are set', async () => {
    bot = await startBot({ ...env(), REDIS_URL: TEST_REDIS_URL, REDIS_CLUSTER_NODES: '127.0.0.1:7000' });
    const running = bot;
    const [code] = await once(running.child, 'exit');
    expect(code).toBe(2);
    expect(running.stderr()).toContain(
      'set either REDIS_URL (one Redis server) or REDIS_CLUSTER_NODES (a Redis Cluster), not both',
    );
  });

  it('warns that in-memory state is lost on restart when REDIS_URL is unset', async () => {
    bot = await startBot(env());
    const running = bot;
    await waitFor(async () => (await healthz(running.port))?.ok);
    const warning = running
      .stderr()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .find((l) => l.msg.startsWith('REDIS_URL is not set'));
    expect(warning?.level).toBe(40);
    expect(warning?.msg).toContain('lost on restart');
  });
});
