/**
 * Walkthrough throughput: sequential answer/back pairs through the service on the memory store and
 * on Redis (REDIS_URL, default the local server), and the size of a stored record.
 * A transition is timed two ways: `applyTo` on the record the caller holds (one round trip, as the
 * Slack and console surfaces answer) and `apply` by id (a read first).
 * Run: npx tsx bench/walkthrough-bench.ts
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { loadPlaybook } from '../src/playbooks/load.ts';
import {
  MemoryWalkthroughStore,
  RedisWalkthroughStore,
  type WalkthroughRecord,
  WalkthroughService,
  type WalkthroughStore,
} from '../src/walkthrough/index.ts';

const EVENTS = 2000;
const WALKS = 200;
const where = { workspace: 'B', conversation: 'bench' };
const playbook = loadPlaybook(
  fileURLToPath(new URL('../test/fixtures/playbooks/test-walk', import.meta.url)),
);

/** `EVENTS` answer/back pairs on the record held, each the record the last one returned. */
async function longWalk(service: WalkthroughService): Promise<{ record: WalkthroughRecord; ms: number }> {
  let record = await service.start({ playbook, where, owner: 'U1' });
  const t0 = performance.now();
  for (let i = 0; i < EVENTS / 2; i++) {
    record = await service.applyTo(record, { type: 'choose', answer: 'container' }, 'U1');
    record = await service.applyTo(record, { type: 'back' }, 'U1');
  }
  return { record, ms: (performance.now() - t0) / EVENTS };
}

/** 200 events more on a long walkthrough, by id (a read, then the write). */
async function byId(service: WalkthroughService, id: string): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < 100; i++) {
    await service.apply(id, { type: 'choose', answer: 'container' }, 'U1');
    await service.apply(id, { type: 'back' }, 'U1');
  }
  return (performance.now() - t0) / 200;
}

/** Many short walkthroughs (start + 10 events each, as a real one), then one long one. */
async function run(name: string, store: WalkthroughStore): Promise<void> {
  const service = new WalkthroughService({ store });
  const t0 = performance.now();
  for (let w = 0; w < WALKS; w++) {
    let record = await service.start({ playbook, where, owner: 'U1' });
    for (let i = 0; i < 5; i++) {
      record = await service.applyTo(record, { type: 'choose', answer: 'container' }, 'U1');
      record = await service.applyTo(record, { type: 'back' }, 'U1');
    }
  }
  const short = (performance.now() - t0) / (WALKS * 11);
  const fresh = JSON.stringify(await service.start({ playbook, where, owner: 'U1' })).length;
  const long = await longWalk(service);
  const after = JSON.stringify(await service.get(long.record.id)).length;
  const read = await byId(service, long.record.id);
  const t1 = performance.now();
  const transcript = await service.transcript(long.record.id);
  const transcriptMs = performance.now() - t1;
  const rows = transcript.split('\n').filter((l) => /^\| 20/.test(l)).length;
  console.log(
    `${name.padEnd(7)} short walkthroughs ${short.toFixed(3)} ms/event; one of ${EVENTS} events ${long.ms.toFixed(3)} ms/event (applyTo), ${read.toFixed(3)} ms/event by id; record ${fresh} B new, ${after} B after ${EVENTS} events; transcript ${rows} audit rows in ${transcriptMs.toFixed(1)} ms`,
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
