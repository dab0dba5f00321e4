import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCode, MemdoctorError } from '../../../src/errors.ts';
import {
  MemoryWalkthroughStore,
  WalkthroughService,
  type WalkthroughStore,
} from '../../../src/walkthrough/index.ts';
import { RedisWalkthroughStore } from '../../../src/walkthrough/store/redis.ts';
import { deletePrefix, newRedis, randomPrefix } from '../../support/redis.ts';
import { parseKv, TEST_PARSER_REGISTRY, testPlaybook } from '../helpers.ts';

const CONNECTIONS = 10;
const ANSWERS = 50;

function serviceOn(store: WalkthroughStore): WalkthroughService {
  return new WalkthroughService({ store, parsers: TEST_PARSER_REGISTRY, parse: parseKv });
}

/** 50 people answer the first step at once, spread over the given services (replicas). */
async function race(services: WalkthroughService[]): Promise<void> {
  const first = services[0] as WalkthroughService;
  const started = await first.start({
    playbook: testPlaybook(),
    where: { workspace: 'T1', conversation: 'C1' },
    owner: 'U0',
  });
  const results = await Promise.allSettled(
    Array.from({ length: ANSWERS }, (_, i) => {
      const svc = services[i % services.length] as WalkthroughService;
      const answer = i % 2 === 0 ? 'heap' : 'container';
      return svc.apply(started.id, { type: 'choose', answer, step: 'which-limit' }, `U${i + 1}`);
    }),
  );
  const won = results.filter((r) => r.status === 'fulfilled');
  const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  expect(won).toHaveLength(1);
  expect(lost).toHaveLength(ANSWERS - 1);
  const stored = await first.get(started.id);
  const winner = stored.path[0]?.by;
  for (const failure of lost) {
    expect(failure.reason).toBeInstanceOf(MemdoctorError);
    expect((failure.reason as MemdoctorError).code).toBe(ErrorCode.WalkthroughConflict);
    expect((failure.reason as MemdoctorError).message).toContain(`already answered by ${winner}`);
  }
  expect(stored.version).toBe(started.version + 1);
  expect(stored.path.filter((e) => e.step === 'which-limit')).toHaveLength(1);
  expect(stored.audit.filter((e) => e.event === 'choose')).toHaveLength(1);
  expect(stored.participants).toEqual(['U0', winner]);
}

describe('50 people answering one step at once', () => {
  const prefix = randomPrefix();
  const clients: Redis[] = Array.from({ length: CONNECTIONS }, () => newRedis());
  afterAll(async () => {
    await deletePrefix(clients[0] as Redis, prefix);
    await Promise.all(clients.map((c) => c.quit()));
  });

  it('real Redis over 10 connections: exactly one wins, the others hear who, history has it once', async () => {
    await race(clients.map((redis) => serviceOn(new RedisWalkthroughStore(redis, { prefix }))));
  });

  it('memory store: the same', async () => {
    await race([serviceOn(new MemoryWalkthroughStore())]);
  });
});
