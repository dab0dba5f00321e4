import { describe, expect, it } from 'vitest';
import type { IncidentDelivery, IncidentQueue } from '../../src/incidents/queue.ts';
import { routedAlert } from './alerts.ts';

/** The one delivery a take is expected to give. */
function one(taken: IncidentDelivery[]): IncidentDelivery {
  const [first] = taken;
  if (!first || taken.length !== 1) throw new Error(`expected one delivery, got ${taken.length}`);
  return first;
}

/** What each queue is given by its test file: a fresh queue, and a clock the test can move. */
export interface QueueUnderTest {
  queue: IncidentQueue;
  /** Moves the queue's clock on (its retry times). */
  pass(ms: number): Promise<void>;
  /** Lets a taken delivery sit idle that long: the clock for memory, a real wait for Redis (its idle times are the server's). */
  idle(ms: number): Promise<void>;
  leaseMs: number;
}

/** The semantics both queues share: test/incidents/memory.test.ts and redis.test.ts run it. */
export function queueContract(name: string, open: () => Promise<QueueUnderTest>) {
  describe(`${name}: the incident queue contract`, () => {
    it('queues a delivery once; the same delivery again is a duplicate', async () => {
      const { queue } = await open();
      const alert = routedAlert();
      expect(await queue.accept(alert)).toBe('queued');
      expect(await queue.accept(alert)).toBe('duplicate');
      expect(await queue.accept(routedAlert({ deliveryId: 'other', status: 'resolved' }))).toBe('queued');
      expect(await queue.backlog()).toBe(2);
    });

    it('hands a delivery to one consumer and removes it once done', async () => {
      const { queue } = await open();
      await queue.accept(routedAlert());
      const taken = one(await queue.take('a', 10));
      expect(taken.alert).toEqual(routedAlert());
      expect(taken.attempts).toBe(0);
      expect(await queue.take('b', 10)).toEqual([]);
      await queue.done(taken);
      expect(await queue.backlog()).toBe(0);
      expect(await queue.take('b', 10)).toEqual([]);
    });

    it('hands a delivery whose consumer stopped to another once the lease has run out', async () => {
      const { queue, idle, leaseMs } = await open();
      await queue.accept(routedAlert());
      const first = one(await queue.take('dies', 10));
      await idle(leaseMs * 2);
      const again = one(await queue.take('lives', 10));
      expect(again.alert.event.deliveryId).toBe(first.alert.event.deliveryId);
      await queue.done(again);
      expect(await queue.backlog()).toBe(0);
    });

    it('keeps a renewed delivery with its consumer', async () => {
      const { queue, idle, leaseMs } = await open();
      await queue.accept(routedAlert());
      const taken = one(await queue.take('a', 10));
      await idle(leaseMs * 2);
      await queue.renew(taken, 'a');
      expect(await queue.take('b', 10)).toEqual([]);
    });

    it('hands a postponed delivery out again only once its time has come, with its attempts', async () => {
      const { queue, pass } = await open();
      await queue.accept(routedAlert());
      const taken = one(await queue.take('a', 10));
      await queue.later(taken, 60_000, 1);
      expect(await queue.take('a', 10)).toEqual([]);
      expect(await queue.backlog()).toBe(1);
      await pass(60_001);
      const again = one(await queue.take('a', 10));
      expect(again.attempts).toBe(1);
      expect(again.alert).toEqual(routedAlert());
    });

    it('keeps a delivery given up on as a dead letter, with why, and nothing else of it', async () => {
      const { queue } = await open();
      await queue.accept(routedAlert());
      const taken = one(await queue.take('a', 10));
      await queue.deadLetter({ ...taken, attempts: 4 }, 'Slack answered channel_not_found');
      expect(await queue.backlog()).toBe(0);
      const [letter] = await queue.deadLetters(10);
      expect(letter).toMatchObject({ attempts: 5, reason: 'Slack answered channel_not_found' });
      expect(letter?.alert).toEqual(routedAlert());
    });

    it('lets one owner at a time hold an incident', async () => {
      const { queue } = await open();
      expect(await queue.claimIncident('i', 'a', 10_000)).toBe(true);
      expect(await queue.claimIncident('i', 'b', 10_000)).toBe(false);
      expect(await queue.claimIncident('i', 'a', 10_000)).toBe(true);
      await queue.releaseIncident('i', 'b');
      expect(await queue.claimIncident('i', 'b', 10_000)).toBe(false);
      await queue.releaseIncident('i', 'a');
      expect(await queue.claimIncident('i', 'b', 10_000)).toBe(true);
    });

    it('keeps an incident’s state', async () => {
      const { queue } = await open();
      expect(await queue.incident('i')).toBeUndefined();
      const state = { channel: 'C1', status: 'firing' as const, rootTs: '1.2', refires: 0 };
      await queue.saveIncident('i', state);
      expect(await queue.incident('i')).toEqual(state);
    });
  });
}
