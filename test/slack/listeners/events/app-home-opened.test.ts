import { describe, expect, it } from 'vitest';
import { MemoryOutcomeStore } from '../../../../src/stats/memory.ts';
import { harnessPerTest, waitFor } from '../../support/harness.ts';
import { appHomeOpened } from '../../support/oncall-payloads.ts';
import { eventEnvelope } from '../../support/payloads.ts';

const harness = harnessPerTest({ outcomes: new MemoryOutcomeStore() });

describe('events/app-home-opened', () => {
  it('publishes the Home tab for the person who opened it', async () => {
    const h = harness();
    await h.sender.event(eventEnvelope(appHomeOpened('UHOME001')));
    const published = await waitFor(() => h.fake.callsTo('views.publish')[0]);
    expect(published.args.user_id).toBe('UHOME001');
    const view = JSON.parse(published.args.view ?? '{}') as { type: string; blocks: unknown[] };
    expect(view.type).toBe('home');
    expect(JSON.stringify(view.blocks)).toContain('/memdoctor stats');
  });
});
