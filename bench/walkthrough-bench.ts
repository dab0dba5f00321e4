/**
 * Walkthrough records and transitions at length: one walkthrough taken through 2,000 events
 * (answer, back, answer, ...), then the size of its stored record and the time of a transition at
 * that length, on the memory store and on Redis (REDIS_URL, default the local server).
 * A transition is timed two ways: `applyTo` on the record the caller holds (one round trip, as
 * the Slack and console surfaces answer) and `apply` by id (a read first). Times are medians of
 * 200 transitions, so a busy machine moves them less.
 * Run: npx tsx bench/walkthrough-bench.ts
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { loadPlaybook } from '../src/playbooks/load.ts';
import { RedisKeys } from '../src/redis/keys.ts';
import {
  MemoryWalkthroughStore,
  type WalkthroughEvent,
  type WalkthroughRecord,
  WalkthroughService,
  type WalkthroughStore,
} from '../src/walkthrough/index.ts';
import { RedisWalkthroughStore } from '../src/walkthrough/store/redis.ts';

const EVENTS = 2000;
const SAMPLES = 200;
const where = { workspace: 'B', conversation: 'bench' };
const playbook = loadPlaybook(
  fileURLToPath(new URL('../test/fixtures/playbooks/test-walk', import.meta.url)),
);
const answer: WalkthroughEvent = { type: 'choose', answer: 'container' };
const back: WalkthroughEvent = { type: 'back' };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The walkthrough after `EVENTS` answer/back events, each on the record the last one returned. */
async function longWalk(service: WalkthroughService): Promise<WalkthroughRecord> {
  let record = await service.start({ playbook, where, owner: 'U1' });
  for (let i = 0; i < EVENTS; i++) record = await service.applyTo(record, i % 2 ? back : answer, 'U1');
  return record;
}

/** Median ms of `SAMPLES` more transitions, on the record held or by id. */
async function transitionMs(service: WalkthroughService, from: WalkthroughRecord, byId: boolean) {
  let record = from;
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const event = record.path.length > 0 ? back : answer;
    const t0 = performance.now();
    record = byId ? await service.apply(record.id, event, 'U1') : await service.applyTo(record, event, 'U1');
    times.push(performance.now() - t0);
  }
  return { ms: median(times), record };
}

async function run(name: string, store: WalkthroughStore, storedBytes: (id: string) => Promise<number>) {
  const service = new WalkthroughService({ store });
  const fresh = JSON.stringify(await service.start({ playbook, where, owner: 'U1' })).length;
  const long = await longWalk(service);
  const bytes = await storedBytes(long.id);
  const held = await transitionMs(service, long, false);
  const read = await transitionMs(service, held.record, true);
  const t0 = performance.now();
  const rows = (await service.transcript(long.id)).split('\n').filter((l) => /^\| 20/.test(l)).length;
  const transcriptMs = performance.now() - t0;
  console.log(
    `${name.padEnd(7)} record ${fresh} B new, ${bytes} B after ${EVENTS} events; a transition there: ${held.ms.toFixed(3)} ms on the record held, ${read.ms.toFixed(3)} ms by id (medians of ${SAMPLES}); transcript of ${rows} audit rows in ${transcriptMs.toFixed(1)} ms`,
  );
}

const memory = new MemoryWalkthroughStore();
await run('memory', memory, async (id) => JSON.stringify(await memory.get(id)).length);

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = `mdbench-${randomBytes(4).toString('hex')}`;
const keys = new RedisKeys(prefix);
await run('redis', new RedisWalkthroughStore(redis, { prefix }), async (id) =>
  Buffer.byteLength((await redis.hget(keys.walkthrough(where, id), 'data')) ?? ''),
);
let cursor = '0';
do {
  const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`);
  cursor = next;
  if (found.length > 0) await redis.del(...found);
} while (cursor !== '0');
await redis.quit();
