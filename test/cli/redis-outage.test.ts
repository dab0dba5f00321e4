import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { loadPlaybook } from '../../src/playbooks/load.ts';
import { WalkthroughService } from '../../src/walkthrough/index.ts';
import { RedisWalkthroughStore } from '../../src/walkthrough/store/redis.ts';
import { PATIENCE_MS } from '../support/patience.ts';
import { deletePrefix, newRedis, randomPrefix, snapshotPrefix } from '../support/redis.ts';
import { TcpProxy } from '../support/tcp-proxy.ts';
import { TEST_PLAYBOOKS } from './spawn-helpers.ts';

/**
 * `memdoctor resume` while Redis goes away: the console reaches the shared Redis through a proxy
 * the test cuts. The answer is refused with "Redis is unavailable ... nothing was lost", Redis holds
 * what it held, and once the proxy is back the same answer goes through.
 */

const admin = newRedis();
let proxy: TcpProxy;
let prefix: string;

beforeEach(async () => {
  proxy = await TcpProxy.start(6379);
  prefix = randomPrefix();
  vi.stubEnv('REDIS_URL', proxy.url);
  vi.stubEnv('REDIS_CLUSTER_NODES', '');
  vi.stubEnv('MEMDOCTOR_REDIS_PREFIX', prefix);
  vi.stubEnv('MEMDOCTOR_PLAYBOOKS_DIR', TEST_PLAYBOOKS);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await proxy.close();
  await deletePrefix(admin, prefix);
});

async function until(check: () => boolean, what: string, ms = PATIENCE_MS): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('memdoctor resume with Redis going away', () => {
  it('refuses the answer saying Redis is unavailable and nothing was lost, then takes it once Redis is back', async () => {
    const playbook = loadPlaybook(join(TEST_PLAYBOOKS, 'test-walk'));
    const started = await new WalkthroughService({
      store: new RedisWalkthroughStore(admin, { prefix }),
    }).start({
      playbook,
      where: { workspace: 'local', conversation: 'console' },
      owner: 'alice',
    });
    const stdin = new PassThrough();
    let out = '';
    const done = runCli(['resume', started.id], {
      stdin,
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: (t: string) => (out += t) },
    });
    await until(() => out.includes('-- Step 1: Which limit was hit?'), 'the first step');
    const before = await snapshotPrefix(admin, prefix);

    await proxy.cut();
    stdin.write('1\n');
    await until(() => out.includes('! Redis is unavailable'), 'the refusal');
    expect(out).toMatch(
      new RegExp(
        `! Redis is unavailable: .+\\. Check that Redis is up at REDIS_URL=redis://127\\.0\\.0\\.1:${proxy.port}/?\\. Nothing was lost: a change is stored whole or not at all; once Redis is back, look at the walkthrough \\(status\\) before answering again\\.`,
      ),
    );
    expect(out).not.toContain('Heap after a full GC');
    expect(await snapshotPrefix(admin, prefix)).toEqual(before);

    await proxy.restore();
    // The console's connection comes back on its own (with a back-off): answer until it takes.
    for (let refusals = 1; !out.includes('Heap after a full GC'); ) {
      stdin.write('1\n');
      await until(
        () =>
          out.includes('Heap after a full GC') || out.split('! Redis is unavailable').length - 1 > refusals,
        'the answer or another refusal',
      );
      refusals = out.split('! Redis is unavailable').length - 1;
    }
    stdin.end();
    expect(await done).toBe(0);
    const stored = await new RedisWalkthroughStore(admin, { prefix }).get(started.id);
    expect(stored?.current).toBe('heap-usage');
    expect(stored?.path.map((e) => e.answer)).toEqual([
      { kind: 'question', answer: 'heap', label: 'The Java heap' },
    ]);
  });
});
