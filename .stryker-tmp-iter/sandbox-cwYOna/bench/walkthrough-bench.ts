/**
 * Walkthrough throughput: sequential answer/back pairs through the service on the memory store and
 * on Redis (REDIS_URL, default the local server), and the size of a stored record.
 * Run: npx tsx bench/walkthrough-bench.ts
 */
// @ts-nocheck

import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { loadPlaybook } from '../src/playbooks/load.ts';
import {
  MemoryWalkthroughStore,
  RedisWalkthroughStore,
  WalkthroughService,
  type WalkthroughStore,
} from '../src/walkthrough/index.ts';

const EVENTS = 2000;
const where = { workspace: 'B', conversation: 'bench' };
const playbook = loadPlaybook(
  fileURLToPath(new URL('../test/fixtures/playbooks/test-walk', import.meta.url)),
);

const WALKS = 200;

/** Many short walkthroughs (start + 10 events each, as a real one), then one long one. */
async function run(name: string, store: WalkthroughStore): Promise<void> {
  const service = new WalkthroughService({ store });
  const t0 = performance.now();
  for (let w = 0; w < WALKS; w++) {
    const { id } = await service.start({ playbook, where, owner: 'U1' });
    for (let i = 0; i < 5; i++) {
      await service.apply(id, { type: 'choose', answer: 'container' }, 'U1');
      await service.apply(id, { type: 'back' }, 'U1');
    }
  }
  const short = (performance.now() - t0) / (WALKS * 11);
  const { id } = await service.start({ playbook, where, owner: 'U1' });
  const fresh = JSON.stringify(await service.get(id)).length;
  const t1 = performance.now();
  for (let i = 0; i < EVENTS / 2; i++) {
    await service.apply(id, { type: 'choose', answer: 'container' }, 'U1');
    await service.apply(id, { type: 'back' }, 'U1');
  }
  const long = (performance.now() - t1) / EVENTS;
  const after = JSON.stringify(await service.get(id)).length;
  console.log(
    `${name.padEnd(7)} short walkthroughs ${short.toFixed(3)} ms/event; one of ${EVENTS} events ${long.toFixed(3)} ms/event; record ${fresh} B new, ${after} B after ${EVENTS} events`,
  );
}

await run('memory', new MemoryWalkthroughStore());
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = `mdbench-${randomBytes(4).toString('hex')}`;
await run('redis', new RedisWalkthroughStore(redis, { prefix }));
let cursor = '0';
do {
  const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`);
  cursor = next;
  if (keys.length > 0) await redis.del(...keys);
} while (cursor !== '0');
await redis.quit();
