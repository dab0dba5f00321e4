import { afterEach, describe, expect, it } from 'vitest';
import { routedAlert } from '../incidents/alerts.ts';
import { ALERT_CHANNEL, alertRig } from './support/alert-rig.ts';

describe('1,000 alerts in a burst, two replicas', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
  });

  it('loses none and opens one thread per incident, whichever replica takes which delivery', async () => {
    const rig = await alertRig({});
    stop = () => rig.stop();
    const [a, b] = [await rig.replica('a'), await rig.replica('b')];
    // 100 incidents, each delivered 10 times (Alertmanager repeats, a resolution, redeliveries).
    const alerts = Array.from({ length: 1000 }, (_, i) => ({
      ...routedAlert(
        {
          incidentKey: `burst:${i % 100}`,
          deliveryId: `burst:${i}`,
          status: i >= 900 ? 'resolved' : 'firing',
          title: `burst incident ${i % 100}`,
        },
        ALERT_CHANNEL,
      ),
      checks: [],
    }));
    const outcomes = await Promise.all(
      alerts.map((alert) => (alert.event.deliveryId.endsWith('7') ? a : b).queue.accept(alert)),
    );
    expect(outcomes.every((o) => o === 'queued')).toBe(true);
    await Promise.all([rig.drain(a, 120_000), rig.drain(b, 120_000)]);
    expect(rig.fake.rejections).toEqual([]);
    const roots = rig.roots();
    expect(roots).toHaveLength(100);
    expect(new Set(roots.map((r) => JSON.stringify(r.blocks[0]))).size).toBe(100);
    for (const root of roots) expect(rig.replies(root)).toHaveLength(1);
    // Every incident's last delivery resolved it: its root says so, edited once.
    expect(roots.every((r) => JSON.stringify(r.blocks).includes('Resolved'))).toBe(true);
    expect(rig.fake.callsTo('chat.update')).toHaveLength(100);
    expect(await a.queue.deadLetters(10)).toEqual([]);
  }, 180_000);
});
