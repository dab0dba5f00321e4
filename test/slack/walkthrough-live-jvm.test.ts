import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../src/walkthrough/index.ts';
import { click, threadReplies } from './support/clicks.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { eventEnvelope, slashCommand, threadReply } from './support/payloads.ts';

// The shipped playbooks with the real parsers, fed output captured here by scripts/capture/jvm/capture.sh
// (test/engine/parsers/fixtures/SOURCES.md) with settings no earlier fixture used.
const capture = (name: string) =>
  readFileSync(new URL(`../engine/parsers/fixtures/${name}`, import.meta.url), 'utf8').replace(/\n$/, '');
const OWNER = 'UALICE01';
const CHANNEL = 'CLIVEJVM';

let h: Harness;
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

async function walk(playbook: string) {
  h = await startHarness({
    playbooks: loadPlaybooks(PLAYBOOKS_DIR),
    walkthroughs: new WalkthroughService({ store: new MemoryWalkthroughStore() }),
  });
  await h.sender.command(
    slashCommand(`walk ${playbook}`, { user: OWNER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
  );
  return waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL && !m.thread_ts));
}

const reply = (root: { ts: string }, n: number) => waitFor(() => threadReplies(h, CHANNEL, root.ts)[n]);

async function paste(root: { ts: string }, text: string) {
  const message = threadReply({
    user: OWNER,
    channel: CHANNEL,
    threadTs: root.ts,
    parentUserId: h.fake.botUserId,
    text: `\`\`\`${text}\`\`\``,
  });
  await h.sender.event(eventEnvelope(message));
}

describe('jvm-oom in Slack, on live captures', () => {
  it('takes an NMT summary of 3,019 idle threads (131 MB of stack committed) to the thread leak', async () => {
    const root = await walk('jvm-oom');
    await click(h, await reply(root, 0), 'Native thread, malloc failure or killed', OWNER);
    await click(h, await reply(root, 1), 'Malloc failure or the process was killed', OWNER);
    expect((await reply(root, 2)).text).toContain("Where does the JVM's native memory go?");
    await paste(root, capture('nmt/jdk17-thread-leak-3000-xss-default.txt'));
    const conclusion = await reply(root, 3);
    expect(conclusion.text).toContain('Threads are created without a bound');
    expect(JSON.stringify(conclusion.blocks)).toContain('NMT counted 3019 live threads');
  });
});

describe('a GC log of a heap leak in Slack (issue 21: ZGC logs were refused)', () => {
  it('reads a ZGC log with wall-clock decorators and asks for the histogram next', async () => {
    const root = await walk('jvm-oom');
    await click(h, await reply(root, 0), 'Java heap space or GC overhead limit', OWNER);
    expect((await reply(root, 1)).text).toContain('How full is the heap after collections?');
    await paste(root, capture('gc-log/jdk17-zgc-leak-oom-32m-xlog-gc-time.log'));
    const next = await reply(root, 2);
    expect(next.text).toContain('What fills the heap?');
  });
});

describe('a GC log alone diagnosed in Slack (issue 21 long tail)', () => {
  it('is heap exhaustion, and the walkthrough knows the heap ran out', async () => {
    h = await startHarness({
      playbooks: loadPlaybooks(PLAYBOOKS_DIR),
      walkthroughs: new WalkthroughService({ store: new MemoryWalkthroughStore() }),
    });
    const log = capture('gc-log/jdk17-zgc-leak-oom-32m-xlog-gc-uptime.log');
    await h.sender.command(
      slashCommand(log, { user: OWNER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
    );
    const root = await waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL && !m.thread_ts));
    expect(JSON.stringify(root.blocks)).toContain('A JVM ran out of memory');
    await click(h, root, 'Start walkthrough', OWNER);
    expect((await reply(root, 0)).text).toContain('How full is the heap after collections?');
  });
});
