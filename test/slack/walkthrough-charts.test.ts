import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../src/walkthrough/index.ts';
import { click, threadReplies } from './support/clicks.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { eventEnvelope, slashCommand, threadReply } from './support/payloads.ts';

// A real capture the GC log parser is tested on (test/engine/parsers/fixtures/SOURCES.md).
const GC_LOG = readFileSync(
  new URL(
    '../engine/parsers/fixtures/gc-log/jdk17-parallel-leak-oom-128m-xlog-gc-uptime.log',
    import.meta.url,
  ),
  'utf8',
).replace(/\n$/, '');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const OWNER = 'UALICE01';
const CHANNEL = 'CWALKCHART';

let h: Harness;
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

const reply = (root: { ts: string }, n: number) => waitFor(() => threadReplies(h, CHANNEL, root.ts)[n]);

/** The Slack app with the shipped playbooks and the real parsers. */
async function start(): Promise<void> {
  h = await startHarness({
    playbooks: loadPlaybooks(PLAYBOOKS_DIR),
    walkthroughs: new WalkthroughService({ store: new MemoryWalkthroughStore() }),
  });
}

/** jvm-oom to its GC log step, and the log pasted as a thread reply. */
async function pasteGcLog() {
  await h.sender.command(
    slashCommand('walk jvm-oom', { user: OWNER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
  );
  const root = await waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL && !m.thread_ts));
  await click(h, await reply(root, 0), 'Java heap space or GC overhead limit', OWNER);
  expect((await reply(root, 1)).text).toContain('How full is the heap after collections?');
  const message = threadReply({
    user: OWNER,
    channel: CHANNEL,
    threadTs: root.ts,
    parentUserId: h.fake.botUserId,
    text: `\`\`\`${GC_LOG}\`\`\``,
  });
  await h.sender.event(eventEnvelope(message));
  return root;
}

describe("a paste step's chart in the walkthrough's thread", () => {
  it('goes up when the GC log is answered, after the next step, under the name the transcript gives it', async () => {
    await start();
    const root = await pasteGcLog();
    const next = await reply(root, 2);
    expect(next.text).toContain('What fills the heap?');
    const complete = await waitFor(() => h.fake.callsTo('files.completeUploadExternal')[0]);
    const asked = h.fake.callsTo('files.getUploadURLExternal')[0];
    expect(asked?.args.filename).toBe('gc-log-gc-heap.png');
    expect(asked?.args.alt_txt).toMatch(/^Chart: heap in use after each GC .*leak likely/);
    expect(complete.args.channel_id).toBe(CHANNEL);
    expect(complete.args.thread_ts).toBe(root.ts);
    const [file] = JSON.parse(complete.args.files ?? '[]') as { id: string }[];
    const bytes = h.fake.uploads.get(file?.id ?? '')?.bytes ?? Buffer.alloc(0);
    expect(bytes.subarray(0, 8)).toEqual(PNG);
    expect(Number(asked?.args.length)).toBe(bytes.length);
    // The next step went out before the picture was asked for, and one picture for the one step.
    const nextPosted = h.fake.calls.findIndex(
      (c) => c.method === 'chat.postMessage' && (c.args.text ?? '').includes('What fills the heap?'),
    );
    expect(nextPosted).toBeGreaterThanOrEqual(0);
    expect(nextPosted).toBeLessThan(h.fake.calls.indexOf(asked as (typeof h.fake.calls)[number]));
    expect(h.fake.callsTo('files.getUploadURLExternal')).toHaveLength(1);
    const record = await h.deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: CHANNEL },
      root.ts,
    );
    const transcript = await h.deps.walkthroughs.transcript(record?.id ?? expect.fail('no walkthrough'));
    expect(transcript).toContain('](gc-log-gc-heap.png)');
  });

  it('a failed upload is only logged: the walkthrough has moved on and the answer is kept', async () => {
    await start();
    h.fake.failNext('files.getUploadURLExternal', 'ratelimited');
    const root = await pasteGcLog();
    expect((await reply(root, 2)).text).toContain('What fills the heap?');
    await waitFor(() => h.logs.lines.find((l) => l.msg === 'chart not posted'));
    expect(h.fake.callsTo('files.completeUploadExternal')).toEqual([]);
    const record = await h.deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: CHANNEL },
      root.ts,
    );
    expect(record?.current).toBe('histogram');
  });
});
