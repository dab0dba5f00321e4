import { describe, expect, it } from 'vitest';
import { MemoryOutcomeStore } from '../../../../src/stats/memory.ts';
import { threadReplies } from '../../support/clicks.ts';
import { harnessPerTest, waitFor } from '../../support/harness.ts';
import { slashCommand } from '../../support/payloads.ts';

const harness = harnessPerTest(() => ({ outcomes: new MemoryOutcomeStore() }));
const USER = 'UALICE01';
const CHANNEL = 'CCMD001';

function command(text: string) {
  const h = harness();
  return h.sender.command(
    slashCommand(text, { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
  );
}

describe('commands/memdoctor', () => {
  it('diagnoses a paste into the channel', async () => {
    await command('java.lang.OutOfMemoryError: Java heap space');
    const post = await waitFor(() => harness().fake.callsTo('chat.postMessage')[0]);
    expect(post.args).toMatchObject({ channel: CHANNEL });
    expect(post.args.text).toContain('Test executor heap exhausted');
  });

  it('answers help and list privately', async () => {
    await command('list');
    const reply = await waitFor(() => harness().fake.responses[0]);
    expect(reply.response_type).toBe('ephemeral');
    expect(JSON.stringify(reply.blocks)).toContain('test-gc-pressure');
  });

  it('starts a walkthrough under its own root message with walk, and refuses an unknown playbook', async () => {
    const h = harness();
    await command('walk test-heap-oom');
    const root = await waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL && !m.thread_ts));
    expect((await waitFor(() => threadReplies(h, CHANNEL, root.ts)[0])).text).toContain('Step 1');
    await command('walk nope');
    const refused = await waitFor(() => h.fake.responses[0]);
    expect(JSON.stringify(refused.blocks)).toContain('There is no playbook \\"nope\\". Try /memdoctor list.');
  });

  it('shows the workspace figures with stats, none before anything was counted', async () => {
    await command('stats');
    const empty = await waitFor(() => harness().fake.responses[0]);
    expect(empty.response_type).toBe('ephemeral');
    expect(JSON.stringify(empty)).toContain('No outcomes recorded in this workspace yet.');
    await command('walk test-heap-oom');
    await waitFor(() => harness().fake.messages.find((m) => m.thread_ts));
    await command('stats');
    const counted = await waitFor(() => harness().fake.responses[1]);
    expect(JSON.stringify(counted)).toMatch(/test-heap-oom \/ - +0 +0 +1 /);
  });
});
