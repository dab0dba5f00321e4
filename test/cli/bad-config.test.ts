import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeSlack } from '../slack/support/fake-slack.ts';
import { BOT_TOKEN, SIGNING_SECRET } from '../slack/support/harness.ts';
import { PATIENCE_MS } from '../support/patience.ts';
import { TEST_REDIS_URL } from '../support/redis.ts';
import { assertBuilt, ROOT, testEnv } from './spawn-helpers.ts';

/*
 * Issue 13, item 5: `npm start` with a bad configuration must stop at once, non-zero, with a message
 * naming the variable. Each case spawns the real entry point (node on the built dist/main.js, what
 * `npm start` runs) as a deployment runs it. Before: half the Slack settings opened the console and
 * exited 0, a taken PORT printed a raw EADDRINUSE and the process lingered, a missing playbooks
 * folder printed a raw ENOENT, and a Redis database that does not exist was reported up.
 */
interface Exit {
  code: number | null;
  /** The signal that ended it: SIGKILL when it was still running after `limitMs`, else null. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `npm start` (node dist/main.js) and the installed `memdoctor serve`. */
const ENTRY = { start: ['dist/main.js'], serve: ['bin/memdoctor.mjs', 'serve'] };

/** Runs an entry point with stdin closed; kills it after PATIENCE_MS (a lingering process). */
async function start(env: Record<string, string>, entry = ENTRY.start): Promise<Exit> {
  assertBuilt();
  const child = spawn(process.execPath, entry, {
    cwd: ROOT,
    env: testEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString('utf8');
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), PATIENCE_MS);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  return { code, signal, stdout, stderr };
}

describe('npm start stops on a bad configuration, naming the variable', () => {
  it.each([
    [{ SLACK_BOT_TOKEN: BOT_TOKEN }, 'SLACK_SIGNING_SECRET is not set, but SLACK_BOT_TOKEN is'],
    [{ SLACK_SIGNING_SECRET: SIGNING_SECRET }, 'SLACK_BOT_TOKEN is not set, but SLACK_SIGNING_SECRET is'],
    [{ SLACK_APP_TOKEN: 'xapp-1-A1-1-x' }, 'SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET are not set'],
  ])('half the Slack settings (%j) do not open the console', async (env, message) => {
    const run = await start(env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).not.toContain('memdoctor console');
  });

  it('a missing MEMDOCTOR_PLAYBOOKS_DIR names the variable and the path', async () => {
    const run = await start({ MEMDOCTOR_PLAYBOOKS_DIR: '/nonexistent/memdoctor-playbooks' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('there is no folder /nonexistent/memdoctor-playbooks');
    expect(run.stderr).toContain('→ at MEMDOCTOR_PLAYBOOKS_DIR');
    expect(run.stderr).not.toContain('ENOENT');
  });

  it('a REDIS_URL naming a database the server does not have fails at start', async () => {
    const redis = new Redis(TEST_REDIS_URL);
    const [, count] = (await redis.config('GET', 'databases')) as [string, string];
    redis.disconnect();
    const url = `${TEST_REDIS_URL.replace(/\/\d*$/, '')}/${count}`;
    const run = await start({ REDIS_URL: url });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `REDIS_URL=${url} names database ${count}, which this Redis server does not have`,
    );
    expect(run.stdout).not.toContain('memdoctor console');
  });
});

describe('npm start with a PORT that is taken', () => {
  const fake = new FakeSlack(BOT_TOKEN);
  const squatter = createServer();
  let release: () => void = () => {};

  beforeAll(async () => {
    await fake.start();
    // The token check never answers: its pending request (and retries) must not keep the process up.
    release = fake.hold('auth.test');
    squatter.listen(0);
    await once(squatter, 'listening');
  });
  afterAll(async () => {
    release();
    squatter.close();
    await fake.stop();
  });

  it.each(Object.entries(ENTRY))(
    '%s says PORT is in use and exits non-zero by itself, leaving nothing running',
    async (_name, entry) => {
      const port = (squatter.address() as AddressInfo).port;
      const run = await start(
        {
          SLACK_BOT_TOKEN: BOT_TOKEN,
          SLACK_SIGNING_SECRET: SIGNING_SECRET,
          SLACK_API_URL: fake.apiUrl,
          MEMDOCTOR_ALLOW_HTTP_LOOPBACK: 'true',
          REDIS_URL: TEST_REDIS_URL,
          PORT: String(port),
        },
        entry,
      );
      // It ended by itself: the token check above never answers, so a process that waited for it
      // would still be running when start() kills it (with SIGKILL, and no exit code).
      expect(run.signal).toBeNull();
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`PORT=${port} is already in use by another process`);
      expect(run.stderr).not.toContain('EADDRINUSE');
    },
  );
});
