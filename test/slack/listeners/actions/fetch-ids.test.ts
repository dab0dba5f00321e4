import { afterEach, describe, expect, it } from 'vitest';
import { VIEW } from '../../../../src/slack/ids.ts';
import { flinkFake } from '../../../connectors/fakes/systems.ts';
import { targetFor, useFake } from '../../../connectors/support.ts';
import type { Harness } from '../../support/harness.ts';
import { startWith, toJobSlotsForm } from '../fetch-form.ts';

// Registered first, so its stop runs after the app's (vitest runs after-hooks in reverse).
const flink = useFake(flinkFake);
let h: Harness;
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

describe('actions/fetch-ids: "Fetch from ...…" on a step whose fetch lacks an id', () => {
  it('says which id is missing and opens a form asking for it by name; nothing is fetched yet', async () => {
    h = await startWith({ flink: targetFor(flink.url) });
    const { jobSlots, view } = await toJobSlotsForm(h);
    expect(JSON.stringify(jobSlots.blocks)).toContain(
      'needs jobId, which this walkthrough does not know yet: give it, or answer by hand.',
    );
    expect(view.callback_id).toBe(VIEW.fetchIds);
    expect(view.blocks.map((b) => b.label?.text).filter(Boolean)).toEqual(['job id']);
    expect(flink.fake.seen).toEqual([]);
  });
});
