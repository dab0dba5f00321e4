import type { Cluster, Redis } from 'ioredis';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, MemdoctorError } from '../../../src/errors.ts';
import { RedisKeys } from '../../../src/redis/keys.ts';
import { keepRecentAudit, RECENT_AUDIT_ENTRIES } from '../../../src/walkthrough/audit.ts';
import type { WalkthroughEvent } from '../../../src/walkthrough/events.ts';
import { createRecord } from '../../../src/walkthrough/machine.ts';
import type { WalkthroughRecord } from '../../../src/walkthrough/record.ts';
import { MemoryWalkthroughStore } from '../../../src/walkthrough/store/memory.ts';
import { RedisWalkthroughStore } from '../../../src/walkthrough/store/redis.ts';
import type { WalkthroughStore } from '../../../src/walkthrough/store/types.ts';
import {
  CLUSTER_NODES,
  CLUSTER_SKIPPED,
  clusterPrefix,
  deleteClusterPrefix,
  newClusterClient,
} from '../../support/cluster.ts';
import { deletePrefix, newRedis, randomPrefix } from '../../support/redis.ts';
import { AT, play, testProcedure } from '../helpers.ts';

let counter = 0;

function record(
  conversation = 'C1',
  options: { thread?: string; createdAt?: string } = {},
): WalkthroughRecord {
  counter++;
  const draft = createRecord({
    id: `T1-${conversation}-id${String(counter).padStart(6, '0')}`,
    workspace: 'T1',
    conversation,
    ...(options.thread ? { thread: options.thread } : {}),
    playbook: { id: 'test-leak', version: 'v1', title: 'Test leak' },
    procedure: testProcedure(),
    owner: 'U1',
    at: options.createdAt ?? AT,
  });
  return play(draft, [{ type: 'start' }]);
}

async function errorOf(promise: Promise<unknown>): Promise<MemdoctorError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MemdoctorError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** One connection per kind, opened on first use; every test gets a fresh key prefix on it. */
function onRedis(open: () => Redis | Cluster, clear: (c: Redis | Cluster, prefix: string) => Promise<void>) {
  let connection: Redis | Cluster | undefined;
  return () => {
    if (!connection) {
      const opened = open();
      connection = opened;
      cleanups.push(async () => {
        await opened.quit();
      });
    }
    const redis = connection;
    const prefix = CLUSTER_NODES ? clusterPrefix() : randomPrefix();
    cleanups.unshift(() => clear(redis, prefix));
    return new RedisWalkthroughStore(redis, { prefix });
  };
}

const factories: [string, () => WalkthroughStore][] = [
  ['memory', () => new MemoryWalkthroughStore()],
  ['redis', onRedis(newRedis, (r, p) => deletePrefix(r as Redis, p))],
];
if (CLUSTER_NODES)
  factories.push([
    'redis cluster',
    onRedis(newClusterClient, (c, p) => deleteClusterPrefix(c as Cluster, p)),
  ]);
else describe.skip(`redis cluster store contract${CLUSTER_SKIPPED}`, () => {});

describe.each(factories)('%s store contract', (_kind, makeStore) => {
  let store: WalkthroughStore;
  beforeEach(() => {
    store = makeStore();
  });

  it('returns what was created, as a copy', async () => {
    const saved = record();
    await store.create(saved);
    const loaded = await store.get(saved.id);
    expect(loaded).toEqual(saved);
    if (loaded) loaded.owner = 'changed';
    expect((await store.get(saved.id))?.owner).toBe('U1');
  });

  it('knows nothing of unknown or malformed ids', async () => {
    expect(await store.get('T1-C1-nosuchid')).toBeUndefined();
    expect(await store.get('not an id')).toBeUndefined();
  });

  it('refuses to create the same id twice', async () => {
    const saved = record();
    await store.create(saved);
    expect((await errorOf(store.create(saved))).code).toBe(ErrorCode.WalkthroughConflict);
  });

  it('replaces only over the version that was read, naming who won', async () => {
    const first = record();
    await store.create(first);
    const byU2 = play(first, [{ type: 'choose', answer: 'container' }], 'U2');
    await store.replace(byU2, first.version);
    const byU3 = play(first, [{ type: 'choose', answer: 'heap' }], 'U3');
    const lost = await errorOf(store.replace(byU3, first.version));
    expect(lost.code).toBe(ErrorCode.WalkthroughConflict);
    expect(lost.message).toMatch(
      /already answered by U2 \(choose: The container limit\) at 10:00 UTC; it is now at "Restart with sampling on"/,
    );
    expect(await store.get(first.id)).toEqual(byU2);
  });

  it('reports a missing walkthrough on replace', async () => {
    const never = record();
    expect((await errorOf(store.replace(never, never.version))).code).toBe(ErrorCode.WalkthroughNotFound);
  });

  it('lists the active walkthroughs of one conversation, oldest first', async () => {
    const later = record('C7', { createdAt: '2026-03-01T11:00:00.000Z' });
    const earlier = record('C7', { createdAt: '2026-03-01T09:00:00.000Z' });
    const elsewhere = record('C8');
    const finished = record('C7');
    for (const r of [later, earlier, elsewhere, finished]) await store.create(r);
    await store.replace(play(finished, [{ type: 'abort' }]), finished.version);
    const listed = await store.listActive({ workspace: 'T1', conversation: 'C7' });
    expect(listed.map((r) => r.id)).toEqual([earlier.id, later.id]);
    const done = play(earlier, [
      { type: 'choose', answer: 'heap' },
      { type: 'measure', value: 99 },
    ]);
    await store.replace(done, earlier.version);
    expect((await store.listActive({ workspace: 'T1', conversation: 'C7' })).map((r) => r.id)).toEqual([
      later.id,
    ]);
  });

  it('lists a finished walkthrough again when back reopens it', async () => {
    const where = { workspace: 'T1', conversation: 'C11' };
    const first = record('C11');
    await store.create(first);
    const done = play(first, [
      { type: 'choose', answer: 'heap' },
      { type: 'measure', value: 99 },
    ]);
    await store.replace(done, first.version);
    expect(await store.listActive(where)).toEqual([]);
    const reopened = play(done, [{ type: 'back' }]);
    await store.replace(reopened, done.version);
    expect((await store.listActive(where)).map((r) => r.id)).toEqual([first.id]);
  });

  it('finds the latest walkthrough of a thread', async () => {
    const where = { workspace: 'T1', conversation: 'C9' };
    expect(await store.findByThread(where, '1700000000.000100')).toBeUndefined();
    const one = record('C9', { thread: '1700000000.000100' });
    const two = record('C9', { thread: '1700000000.000100' });
    await store.create(one);
    expect((await store.findByThread(where, '1700000000.000100'))?.id).toBe(one.id);
    await store.create(two);
    expect((await store.findByThread(where, '1700000000.000100'))?.id).toBe(two.id);
    expect(
      await store.findByThread({ workspace: 'T1', conversation: 'C1' }, '1700000000.000100'),
    ).toBeUndefined();
  });

  it('finds a walkthrough linked to a thread after it started', async () => {
    const where = { workspace: 'T1', conversation: 'C10' };
    const plain = record('C10');
    await store.create(plain);
    await store.replace(play(plain, [{ type: 'thread', thread: '1700000000.000200' }]), plain.version);
    expect((await store.findByThread(where, '1700000000.000200'))?.id).toBe(plain.id);
  });

  it('keeps the audit log beside the record, appended by the same write, read back in order', async () => {
    let stored = record('C12');
    await store.create(stored);
    for (let i = 0; i < RECENT_AUDIT_ENTRIES + 20; i++) {
      const event: WalkthroughEvent = i % 2 === 0 ? { type: 'choose', answer: 'heap' } : { type: 'back' };
      const next = play(stored, [event], 'U2');
      const { record: kept, archived } = keepRecentAudit(next);
      await store.replace(kept, stored.version, archived);
      stored = kept;
    }
    const loaded = await store.get(stored.id);
    expect(loaded?.audit).toHaveLength(RECENT_AUDIT_ENTRIES);
    expect(loaded?.archivedAudit).toBe(21);
    const whole = await store.getWithAudit(stored.id);
    expect(whole?.record).toEqual(loaded);
    expect(whole?.audit).toHaveLength(RECENT_AUDIT_ENTRIES + 21);
    expect(whole?.audit[0]?.event).toBe('start');
    expect(whole?.audit.slice(-RECENT_AUDIT_ENTRIES)).toEqual(loaded?.audit);
  });

  it('appends nothing to the audit log when the version check fails', async () => {
    const first = record('C13');
    await store.create(first);
    const winner = play(first, [{ type: 'choose', answer: 'container' }], 'U2');
    await store.replace(winner, first.version);
    const loser = play(first, [{ type: 'choose', answer: 'heap' }], 'U3');
    const entry = { at: AT, actor: 'U3', event: 'choose', detail: 'should not be kept' };
    expect((await errorOf(store.replace(loser, first.version, [entry]))).code).toBe(
      ErrorCode.WalkthroughConflict,
    );
    expect((await store.getWithAudit(first.id))?.audit).toEqual(winner.audit);
  });

  it('holds back an unlisted walkthrough from listActive until its next write', async () => {
    const where = { workspace: 'T1', conversation: 'C14' };
    const held = record('C14');
    await store.create(held, { listed: false });
    expect(await store.listActive(where)).toEqual([]);
    expect(await store.get(held.id)).toEqual(held);
    const linked = play(held, [{ type: 'thread', thread: '1700000000.000300' }]);
    await store.replace(linked, held.version);
    expect((await store.listActive(where)).map((r) => r.id)).toEqual([held.id]);
  });

  it('knows no audit trail of an unknown walkthrough', async () => {
    expect(await store.getWithAudit('T1-C1-nosuchid')).toBeUndefined();
    expect(await store.getWithAudit('not an id')).toBeUndefined();
  });
});

describe.skipIf(!CLUSTER_NODES)(`the cluster contract run${CLUSTER_SKIPPED}`, () => {
  it('spreads its conversations over several masters, so MOVED would show up', async () => {
    const cluster = newClusterClient();
    const keys = new RedisKeys('any');
    const slots = new Set<number>();
    for (const conversation of ['C1', 'C7', 'C8', 'C9', 'C10', 'C11', 'C12', 'C13'])
      slots.add(
        Number(await cluster.cluster('KEYSLOT', keys.activeWalkthroughs({ workspace: 'T1', conversation }))),
      );
    const owners = new Set<string>();
    const ranges = await cluster.cluster('SLOTS');
    for (const slot of slots) {
      const range = ranges.find(([from, to]) => slot >= from && slot <= to);
      owners.add(String(range?.[2]?.[1]));
    }
    await cluster.quit();
    expect(owners.size).toBeGreaterThan(1);
  });
});
