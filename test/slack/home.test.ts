import { afterEach, describe, expect, it } from 'vitest';
import { MemoryOutcomeStore } from '../../src/stats/memory.ts';
import { click, threadReplies } from './support/clicks.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { appHomeOpened } from './support/oncall-payloads.ts';
import { eventEnvelope, slashCommand } from './support/payloads.ts';

const HEAP_OOM = 'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n';
const ONCALL = 'UONCALL1';
const COLLEAGUE = 'UBOB0001';

let h: Harness;
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

async function diagnoseIn(channel: string, user: string) {
  await h.sender.command(slashCommand(HEAP_OOM, { user, channel, responseUrl: h.fake.responseUrl }));
  return waitFor(() => h.fake.messages.find((m) => m.channel === channel && !m.thread_ts));
}

describe('the App Home tab', () => {
  it('shows the person’s walkthroughs, diagnoses in their channels, team outcomes and help', async () => {
    const outcomes = new MemoryOutcomeStore();
    h = await startHarness({ outcomes });
    h.fake.memberships.set(ONCALL, ['CMINE001']);
    const mine = await diagnoseIn('CMINE001', COLLEAGUE);
    await diagnoseIn('COTHER01', COLLEAGUE);
    await click(h, mine, 'Start walkthrough', ONCALL);
    await waitFor(() => threadReplies(h, 'CMINE001', mine.ts)[0]);
    await outcomes.feedback({
      workspace: 'T1',
      walkthrough: 'T1-CX-aaaaaa',
      playbook: 'test-heap-oom',
      conclusion: 'more-memory',
      answer: 'fixed',
    });

    await h.sender.event(eventEnvelope(appHomeOpened(ONCALL)));
    const published = await waitFor(() => h.fake.callsTo('views.publish')[0]);
    expect(published.args.user_id).toBe(ONCALL);
    const view = JSON.parse(published.args.view ?? '{}') as { type: string; blocks: unknown[] };
    expect(view.type).toBe('home');
    const text = JSON.stringify(view.blocks);
    const link = `${h.fake.base}/archives/CMINE001/p${mine.ts.replace('.', '')}`;
    // The walkthrough, linked to its thread, at its current step.
    expect(text).toMatch(
      new RegExp(
        `Your active walkthroughs\\*\\\\n• <${link}\\|Test executor heap[^>]*> in <#CMINE001> · at Open the failed stage`,
      ),
    );
    // Diagnoses in the person's channel, not in one they are not in.
    expect(text).toContain('Recent diagnoses in your channels');
    expect(text).toContain('in <#CMINE001>');
    // Issue 27, item 7: who asked is a mention, not its escaped text.
    expect(text).toMatch(new RegExp(`in <#CMINE001> · [0-9: -]+ UTC, asked by <@${COLLEAGUE}>`));
    expect(text).not.toContain('&lt;@');
    expect(text).not.toContain('COTHER01');
    expect(h.fake.callsTo('users.conversations')[0]?.args.user).toBe(ONCALL);
    expect(text).toContain('`test-heap-oom` → `more-memory`: fixed 1 of 1');
    expect(text).toContain('/memdoctor stats');

    // Someone else sees no walkthroughs of theirs and no channels' diagnoses.
    await h.sender.event(eventEnvelope(appHomeOpened(COLLEAGUE)));
    const other = await waitFor(() => h.fake.callsTo('views.publish')[1]);
    const otherText = other.args.view ?? '';
    expect(otherText).toContain('None running.');
    expect(otherText).toContain('None yet.');
  });
});
