import { describe, expect, it } from 'vitest';
import { MemoryIncidentQueue } from '../../src/incidents/memory.ts';
import { routedAlert } from './alerts.ts';
import { queueContract } from './queue-contract.ts';

queueContract('memory', async () => {
  let now = 1_000_000;
  const leaseMs = 1000;
  const queue = new MemoryIncidentQueue({ leaseMs, now: () => now });
  return {
    queue,
    leaseMs,
    pass: async (ms) => {
      now += ms;
    },
    idle: async (ms) => {
      now += ms;
    },
  };
});

describe('the memory queue', () => {
  it('refuses past its backlog, so the sender retries instead of the process growing', async () => {
    const queue = new MemoryIncidentQueue({ maxBacklog: 2 });
    await queue.accept(routedAlert({ deliveryId: '1' }));
    await queue.accept(routedAlert({ deliveryId: '2' }));
    await expect(queue.accept(routedAlert({ deliveryId: '3' }))).rejects.toThrow(/REDIS_URL/);
    expect(await queue.backlog()).toBe(2);
    expect(await queue.accept(routedAlert({ deliveryId: '2' }))).toBe('duplicate');
  });
});
