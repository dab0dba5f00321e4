// @ts-nocheck
import type { Redis } from 'ioredis';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, MemdoctorError } from '../../../src/errors.ts';
import { createRecord } from '../../../src/walkthrough/machine.ts';
import type { WalkthroughRecord } from '../../../src/walkthrough/record.ts';
import { MemoryWalkthroughStore } from '../../../src/walkthrough/store/memory.ts';
import { RedisWalkthroughStore } from '../../../src/walkthrough/store/redis.ts';
import type { WalkthroughStore } from '../../../src/walkthrough/store/types.ts';
import { AT, play, testProcedure } from '../helpers.ts';
import { deletePrefix, newRedis, randomPrefix } from '../redis-helpers.ts';

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

const redisClients: Redis[] = [];
const prefixes: string[] = [];

afterAll(async () => {
  const admin = redisClients[0];
  if (admin) for (const prefix of prefixes) await deletePrefix(admin, prefix);
  await Promise.all(redisClients.map((r) => r.quit()));
});

const factories: [string, () => WalkthroughStore][] = [
  ['memory', () => new MemoryWalkthroughStore()],
  [
    'redis',
    () => {
      const redis = newRedis();
      redisClients.push(redis);
      const prefix = randomPrefix();
      prefixes.push(prefix);
      return new RedisWalkthroughStore(redis, { prefix });
    },
  ],
];

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
});
