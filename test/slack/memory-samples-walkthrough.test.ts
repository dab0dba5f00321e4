import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../src/walkthrough/index.ts';
import { click, threadReplies } from './support/clicks.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { eventEnvelope, slashCommand, threadReply } from './support/payloads.ts';

// Live runs of scripts/capture/python/matrix.sh (test/engine/parsers/fixtures/SOURCES.md).
const sample = (name: string) =>
  readFileSync(new URL(`../engine/parsers/fixtures/memory-samples/${name}`, import.meta.url), 'utf8');

const OWNER = 'UALICE01';
const CHANNEL = 'CSAMPLES1';

let h: Harness;
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

/** The Slack app with the shipped playbooks and the real parsers. */
function startReal(): Promise<Harness> {
  return startHarness({
    walkthroughs: new WalkthroughService({ store: new MemoryWalkthroughStore() }),
    extend: (base) => ({ ...base, playbooks: loadPlaybooks(PLAYBOOKS_DIR) }),
  });
}

/** walk beam-python-leak, "Another release", then the samples pasted as a thread reply. */
async function pasteSamples(text: string) {
  await h.sender.command(
    slashCommand('walk beam-python-leak', { user: OWNER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
  );
  const root = await waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL && !m.thread_ts));
  const first = await waitFor(() => threadReplies(h, CHANNEL, root.ts)[0]);
  await click(h, first, 'Another release', OWNER);
  await waitFor(() => threadReplies(h, CHANNEL, root.ts)[1]);
  await pasteReply(root, text);
  return root;
}

async function pasteReply(root: { ts: string }, text: string) {
  const reply = threadReply({
    user: OWNER,
    channel: CHANNEL,
    threadTs: root.ts,
    parentUserId: h.fake.botUserId,
    text: `\`\`\`${text}\`\`\``,
  });
  await h.sender.event(eventEnvelope(reply));
}

const stepTitled = (root: { ts: string }, title: string) =>
  waitFor(() => threadReplies(h, CHANNEL, root.ts).find((m) => m.text?.includes(title)));

describe('memory samples pasted in a Slack thread (issue 21, items 3 and 4)', () => {
  it('takes a 2 MiB/s climb read from /proc/<pid>/status as a leak, with its rate', async () => {
    h = await startReal();
    const root = await pasteSamples(sample('live-status-climb-2mibs-2s.txt'));
    const next = await stepTitled(root, 'Make the leak small and repeatable');
    const thread = JSON.stringify(threadReplies(h, CHANNEL, root.ts).map((m) => m.blocks));
    expect(thread).toContain('Climbing 2.03 MB/s');
    expect(thread).toContain('It keeps climbing as data is processed');
    expect(next.text).not.toContain('No steady growth seen');
  });

  it('takes flat, one 100 MiB step, then flat as a level, not a climb', async () => {
    h = await startReal();
    const root = await pasteSamples(sample('live-status-step-100mib-1s.txt'));
    await stepTitled(root, 'Does memory come back down after the heavy work?');
    const thread = JSON.stringify(threadReplies(h, CHANNEL, root.ts).map((m) => m.blocks));
    expect(thread).toContain('One step of 100 MB at sample 4');
    expect(thread).toContain('It jumps to a high level and stays there');
    expect(thread).not.toContain('It keeps climbing');
  });

  it('asks for more samples over 8 idle seconds, then judges the longer ones', async () => {
    h = await startReal();
    const root = await pasteSamples(sample('live-ps-idle-8s.txt'));
    await stepTitled(root, 'Take more samples');
    await pasteReply(root, sample('live-ps-climb-0.25mibs-2s.txt'));
    await stepTitled(root, 'Make the leak small and repeatable');
    const thread = JSON.stringify(threadReplies(h, CHANNEL, root.ts).map((m) => m.blocks));
    expect(thread).toContain('sample for longer (hours)');
    expect(thread).toContain('Climbing 257 KB/s');
  });
});
