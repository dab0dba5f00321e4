import { describe, expect, it } from 'vitest';
import { MemoryOutcomeStore } from '../../../../src/stats/memory.ts';
import { click } from '../../support/clicks.ts';
import { diagnoseInChannel, harnessPerTest, waitFor } from '../../support/harness.ts';

const outcomes = new MemoryOutcomeStore();
const harness = harnessPerTest({ outcomes });

describe('actions/not-memory', () => {
  it('takes the buttons off the diagnosis, says who dismissed it, and counts it', async () => {
    const h = harness();
    const root = await diagnoseInChannel(
      h,
      'java.lang.OutOfMemoryError: Java heap space',
      'UALICE01',
      'CNOTMEM',
    );
    await click(h, root, 'Not a memory problem', 'UBOB0002');
    const update = await waitFor(() => h.fake.callsTo('chat.update')[0]);
    expect(update.args.text).toBe('Marked as not a memory problem');
    expect(update.args.blocks).toContain('<@UBOB0002> marked this as not a memory problem.');
    expect(update.args.blocks).not.toContain('"type":"actions"');
    const rows = await waitFor(async () => {
      const found = await outcomes.rows('T1');
      return found.some((r) => r.counts.not_memory > 0) && found;
    });
    expect(rows.find((r) => r.counts.not_memory > 0)?.playbook).toBe('test-heap-oom');
  });
});
