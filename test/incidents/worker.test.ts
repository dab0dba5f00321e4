import { describe, expect, it } from 'vitest';
import { MemoryIncidentQueue } from '../../src/incidents/memory.ts';
import type { IncidentDelivery } from '../../src/incidents/queue.ts';
import { defaultBackoffMs, IncidentWorker } from '../../src/incidents/worker.ts';
import { routedAlert } from './alerts.ts';

/** A memory queue on a clock the test moves, and what its worker did. */
function setup(handle: (delivery: IncidentDelivery) => Promise<void>, maxAttempts = 3) {
  let now = 1_000_000;
  const queue = new MemoryIncidentQueue({ now: () => now });
  const seen = { processed: 0, retried: [] as string[], dead: [] as string[] };
  const worker = new IncidentWorker(queue, handle, {
    consumer: 'w1',
    maxAttempts,
    events: {
      processed: () => {
        seen.processed++;
      },
      retried: (_d, reason) => seen.retried.push(reason),
      deadLettered: (_d, reason) => seen.dead.push(reason),
    },
  });
  return { queue, worker, seen, pass: (ms: number) => (now += ms) };
}

describe('IncidentWorker', () => {
  it('retries a failed delivery after its backoff, then finishes it', async () => {
    let calls = 0;
    const { queue, worker, seen, pass } = setup(async () => {
      if (++calls === 1) throw new Error('Slack did not answer');
    });
    await queue.accept(routedAlert());
    expect(await worker.runOnce()).toBe(1);
    expect(seen.retried).toEqual(['Slack did not answer']);
    expect(await worker.runOnce()).toBe(0); // not before its backoff
    pass(defaultBackoffMs(1));
    expect(await worker.runOnce()).toBe(1);
    expect(seen.processed).toBe(1);
    expect(await queue.backlog()).toBe(0);
  });

  it('keeps a delivery that fails every try as a dead letter after the last one, counted', async () => {
    const { queue, worker, seen, pass } = setup(async () => {
      throw new Error('channel_not_found');
    });
    await queue.accept(routedAlert());
    for (let i = 0; i < 3; i++) {
      await worker.runOnce();
      pass(300_000);
    }
    expect(seen.retried).toHaveLength(2);
    expect(seen.dead).toEqual(['channel_not_found']);
    expect(await queue.backlog()).toBe(0);
    expect((await queue.deadLetters(5))[0]).toMatchObject({ attempts: 3, reason: 'channel_not_found' });
  });

  it('waits at least what the failure asks (Slack’s Retry-After)', async () => {
    let calls = 0;
    const { queue, worker, pass } = setup(async () => {
      if (++calls === 1) throw Object.assign(new Error('ratelimited'), { retryAfterMs: 30_000 });
    });
    await queue.accept(routedAlert());
    await worker.runOnce();
    pass(defaultBackoffMs(1));
    expect(await worker.runOnce()).toBe(0);
    pass(30_000);
    expect(await worker.runOnce()).toBe(1);
    expect(calls).toBe(2);
  });

  it('works one delivery of an incident at a time; the other waits without losing a try', async () => {
    const order: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { queue, worker, pass } = setup(async (d) => {
      order.push(`start ${d.alert.event.deliveryId}`);
      if (d.alert.event.deliveryId === 'a') await gate;
      order.push(`end ${d.alert.event.deliveryId}`);
    });
    await queue.accept(routedAlert({ deliveryId: 'a' }));
    await queue.accept(routedAlert({ deliveryId: 'b', status: 'resolved' }));
    const first = worker.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await first;
    expect(order).toEqual(['start a', 'end a']);
    pass(1000);
    const [b] = await queue.take('peek', 10);
    expect(b?.attempts).toBe(0);
    await queue.later(b as IncidentDelivery, 0, 0);
    await worker.runOnce();
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b']);
  });
});
