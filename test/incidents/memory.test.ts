import { describe, expect, it } from 'vitest';
import { MemoryIncidentQueue } from '../../src/incidents/memory.ts';
import { DEFAULT_DELIVERY_TTL_SECONDS, DEFAULT_INCIDENT_TTL_SECONDS } from '../../src/incidents/queue.ts';
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

describe('the memory queue forgets as Redis does', () => {
  const day = 24 * 3600 * 1000;
  const state = { channel: 'C0ALERTS', status: 'firing' as const, rootTs: '1.000100', refires: 0 };

  function clocked(maxRemembered?: { deliveries: number; incidents: number }) {
    const clock = { now: 1_000_000 };
    const queue = new MemoryIncidentQueue({
      now: () => clock.now,
      ...(maxRemembered ? { maxRemembered } : {}),
    });
    return { queue, clock };
  }

  it('forgets an incident seven days after its last delivery, each delivery keeping it a week more', async () => {
    const { queue, clock } = clocked();
    const alert = routedAlert();
    await queue.saveIncident(alert.event.incidentKey, state);
    clock.now += DEFAULT_INCIDENT_TTL_SECONDS * 1000 - day;
    await queue.accept(routedAlert({ deliveryId: 'repeat-1' }));
    clock.now += 2 * day;
    expect(await queue.incident(alert.event.incidentKey)).toEqual(state);
    clock.now += DEFAULT_INCIDENT_TTL_SECONDS * 1000 - 2 * day + 1;
    expect(await queue.incident(alert.event.incidentKey)).toBeUndefined();
  });

  it('takes a delivery id again once its week is over', async () => {
    const { queue, clock } = clocked();
    expect(await queue.accept(routedAlert())).toBe('queued');
    clock.now += DEFAULT_DELIVERY_TTL_SECONDS * 1000 - 1;
    expect(await queue.accept(routedAlert())).toBe('duplicate');
    clock.now += 2;
    expect(await queue.accept(routedAlert())).toBe('queued');
  });

  it('remembers at most so many ids and incidents, the least recently used going first', async () => {
    const { queue } = clocked({ deliveries: 2, incidents: 2 });
    for (const id of ['a', 'b', 'c']) {
      await queue.accept(routedAlert({ deliveryId: id }));
      await queue.saveIncident(id, state);
    }
    expect(await queue.accept(routedAlert({ deliveryId: 'c' }))).toBe('duplicate');
    expect(await queue.accept(routedAlert({ deliveryId: 'a' }))).toBe('queued');
    expect(await queue.incident('a')).toBeUndefined();
    expect(await queue.incident('c')).toEqual(state);
  });
});
