import type { Cluster, Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RECENT_AUDIT_ENTRIES } from '../../../src/walkthrough/audit.ts';
import {
  MemoryWalkthroughStore,
  type WalkthroughRecord,
  WalkthroughService,
  type WalkthroughStore,
} from '../../../src/walkthrough/index.ts';
import { RedisWalkthroughStore } from '../../../src/walkthrough/store/redis.ts';
import {
  CLUSTER_NODES,
  CLUSTER_SKIPPED,
  clusterPrefix,
  deleteClusterPrefix,
  newClusterClient,
} from '../../support/cluster.ts';
import { deletePrefix, newRedis, randomPrefix } from '../../support/redis.ts';
import { parseKv, TEST_PARSER_REGISTRY, testPlaybook } from '../helpers.ts';

const where = { workspace: 'T1', conversation: 'C1' };
const CHOOSE_HEAP = { type: 'choose', answer: 'heap', step: 'which-limit' } as const;

function serviceOn(store: WalkthroughStore): WalkthroughService {
  return new WalkthroughService({ store, parsers: TEST_PARSER_REGISTRY, parse: parseKv });
}

/** Counts the commands a connection sends (a command is a round trip; nothing here pipelines). */
function countCommands(redis: Redis | Cluster): { sent: string[] } {
  const counter = { sent: [] as string[] };
  const send = redis.sendCommand.bind(redis) as (...args: unknown[]) => unknown;
  (redis as unknown as { sendCommand: (...args: unknown[]) => unknown }).sendCommand = (...args) => {
    counter.sent.push(String((args[0] as { name: string }).name));
    return send(...args);
  };
  return counter;
}

/** The same answer and back, `times` times, on the record each transition returned. */
async function backAndForth(service: WalkthroughService, start: WalkthroughRecord, times: number) {
  let record = start;
  for (let i = 0; i < times; i++) {
    record = await service.applyTo(record, { type: 'choose', answer: 'heap', step: 'which-limit' }, 'U1');
    record = await service.applyTo(record, { type: 'back' }, 'U1');
  }
  return record;
}

const connections: [
  string,
  () => Redis | Cluster,
  (c: Redis | Cluster, p: string) => Promise<void>,
  () => string,
][] = [['redis', newRedis, (c, p) => deletePrefix(c as Redis, p), randomPrefix]];
if (CLUSTER_NODES)
  connections.push([
    'redis cluster',
    newClusterClient,
    (c, p) => deleteClusterPrefix(c as Cluster, p),
    clusterPrefix,
  ]);
else describe.skip(`round trips on a redis cluster${CLUSTER_SKIPPED}`, () => {});

describe.each(connections)('a transition on %s', (_kind, open, clear, newPrefix) => {
  const redis = open();
  const prefix = newPrefix();
  afterAll(async () => {
    await clear(redis, prefix);
    await redis.quit();
  });

  it('is one round trip on the record held: the script, no read before it', async () => {
    const service = serviceOn(new RedisWalkthroughStore(redis, { prefix }));
    const started = await service.start({ playbook: testPlaybook(), where, owner: 'U1' });
    // Once, so the script is known to the server (the first EVALSHA may fall back to EVAL).
    const warm = await backAndForth(service, started, 1);
    const counter = countCommands(redis);
    await backAndForth(service, warm, 5);
    expect(counter.sent).toEqual(Array(10).fill('evalsha'));
  });

  it('is one round trip for a click by id on a record this process last wrote; a replica that did not see it reads first', async () => {
    const store = new RedisWalkthroughStore(redis, { prefix });
    const here = serviceOn(store);
    const started = await here.start({ playbook: testPlaybook(), where, owner: 'U1' });
    const warm = await backAndForth(here, started, 1);
    const counter = countCommands(redis);
    const clicked = await here.apply(started.id, CHOOSE_HEAP, 'U1', warm.version);
    expect(counter.sent).toEqual(['evalsha']);
    counter.sent.length = 0;
    const elsewhere = serviceOn(store);
    await elsewhere.apply(started.id, { type: 'back' }, 'U1', clicked.version);
    expect(counter.sent).toEqual(['hget', 'evalsha']);
  });

  it('decides on the stored record when another replica changed it since: the stale click loses, the fresh one wins', async () => {
    const store = new RedisWalkthroughStore(redis, { prefix });
    const here = serviceOn(store);
    const elsewhere = serviceOn(store);
    const started = await here.start({ playbook: testPlaybook(), where, owner: 'U1' });
    const answered = await elsewhere.apply(started.id, CHOOSE_HEAP, 'U2', started.version);
    const counter = countCommands(redis);
    await expect(here.apply(started.id, CHOOSE_HEAP, 'U1', started.version)).rejects.toThrow(
      /already answered by U2/,
    );
    // The write on the record held is refused by the store, then the stored record is read.
    expect(counter.sent).toEqual(['evalsha', 'hget']);
    counter.sent.length = 0;
    // The stored record that decided the refusal is the one held now: the fresh click needs no read.
    const back = await here.apply(started.id, { type: 'back' }, 'U1', answered.version);
    expect(back.version).toBe(answered.version + 1);
    expect(counter.sent).toEqual(['evalsha']);
  });

  it('checks who may answer on the stored record: a hand-over made on another replica holds here', async () => {
    const store = new RedisWalkthroughStore(redis, { prefix });
    const here = serviceOn(store);
    const elsewhere = serviceOn(store);
    const started = await here.start({ playbook: testPlaybook(), where, owner: 'U1' });
    await elsewhere.apply(started.id, { type: 'handover', to: 'U2' }, 'U1');
    const ownerOnly = async (current: WalkthroughRecord) => {
      if (current.owner !== 'U1') throw new Error(`only ${current.owner} may answer`);
    };
    // No version given (the console): the record held still names U1, the stored one U2.
    await expect(here.apply(started.id, CHOOSE_HEAP, 'U1', undefined, ownerOnly)).rejects.toThrow(
      'only U2 may answer',
    );
    expect((await here.get(started.id)).owner).toBe('U2');
  });

  it('keeps the record small however long the walkthrough, and the transcript whole', async () => {
    const service = serviceOn(new RedisWalkthroughStore(redis, { prefix }));
    const started = await service.start({ playbook: testPlaybook(), where, owner: 'U1' });
    const last = await backAndForth(service, started, 100);
    const stored = await service.get(started.id);
    expect(stored).toEqual(last);
    expect(stored.audit).toHaveLength(RECENT_AUDIT_ENTRIES);
    expect(stored.archivedAudit).toBe(201 - RECENT_AUDIT_ENTRIES);
    const transcript = await service.transcript(started.id);
    const rows = transcript.split('\n').filter((l) => /^\| 20\d\d-/.test(l));
    expect(rows).toHaveLength(201);
    expect(rows[0]).toMatch(/\| U1 \| start \|/);
    expect(rows.filter((r) => r.includes('| back |'))).toHaveLength(100);
  });
});

describe('the memory store', () => {
  it('keeps the same shape: the last entries in the record, all of them in the transcript', async () => {
    const service = serviceOn(new MemoryWalkthroughStore());
    const started = await service.start({ playbook: testPlaybook(), where, owner: 'U1' });
    await backAndForth(service, started, 40);
    const stored = await service.get(started.id);
    expect(stored.audit).toHaveLength(RECENT_AUDIT_ENTRIES);
    expect(stored.archivedAudit).toBe(81 - RECENT_AUDIT_ENTRIES);
    const rows = (await service.transcript(started.id)).split('\n').filter((l) => /^\| 20\d\d-/.test(l));
    expect(rows).toHaveLength(81);
  });

  it('reads nothing before a transition on the record held', async () => {
    const store = new MemoryWalkthroughStore();
    const service = serviceOn(store);
    const started = await service.start({ playbook: testPlaybook(), where, owner: 'U1' });
    let reads = 0;
    const get = store.get.bind(store);
    store.get = (id) => {
      reads++;
      return get(id);
    };
    await backAndForth(service, started, 3);
    expect(reads).toBe(0);
  });
});
