import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { buttonsOf, click, threadReplies } from './support/clicks.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { eventEnvelope, fileShareEvent, slashCommand, threadReply } from './support/payloads.ts';

const HEAP_OOM = 'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n';
const OWNER = 'UALICE01';
const ONCALL = 'UONCALL1';
const GROUP_MEMBER = 'UGROUP01';
const STRANGER = 'UMALLORY';
const CHANNEL = 'CINCIDENT';

let h: Harness;
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

async function diagnose(): Promise<{ root: NonNullable<ReturnType<typeof findRoot>> }> {
  await h.sender.command(
    slashCommand(HEAP_OOM, { user: OWNER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
  );
  return { root: await waitFor(() => findRoot()) };
}

function findRoot() {
  return h.fake.messages.find((m) => m.channel === CHANNEL && !m.thread_ts);
}

function ephemeralFor(user: string, contains: string) {
  return h.fake
    .callsTo('chat.postEphemeral')
    .find((c) => c.args.user === user && (c.args.text ?? '').includes(contains));
}

function reply(root: { ts: string }, n: number) {
  return waitFor(() => threadReplies(h, CHANNEL, root.ts)[n]);
}

describe('a walkthrough in Slack', () => {
  it('runs from the slash command to the transcript through clicks and an uploaded file', async () => {
    h = await startHarness({ oncallUsers: [ONCALL], oncallGroup: 'S0ONCALL' });
    h.fake.groups.set('S0ONCALL', [GROUP_MEMBER]);
    const { root } = await diagnose();

    await click(h, root, 'Start walkthrough', OWNER);
    const step1 = await reply(root, 0);
    expect(step1.text).toContain('Step 1: Open the failed stage in the Spark UI');
    const step1AsFirstShown = structuredClone(step1);

    // Someone who is neither the owner nor on call is told so, privately; nothing moves.
    await click(h, step1, 'Done', STRANGER);
    await waitFor(() => ephemeralFor(STRANGER, `Only <@${OWNER}>`));
    expect(buttonsOf(step1).length).toBeGreaterThan(0);

    await click(h, step1, 'Done', OWNER);
    const step2 = await reply(root, 1);
    expect(step2.text).toContain('Is one task much slower than the rest?');
    expect(buttonsOf(step1)).toEqual([]);
    expect(JSON.stringify(step1.blocks)).toContain(`<@${OWNER}> answered: *done*`);

    // A second click on the old step (a stale screen): only an ephemeral note.
    await click(h, step1AsFirstShown, 'Done', ONCALL);
    const stale = await waitFor(() => ephemeralFor(ONCALL, 'already answered'));
    expect(stale.args.text).toContain(`by <@${OWNER}>: done`);

    // A member of the on-call user group may answer.
    await click(h, step2, 'Yes', GROUP_MEMBER);
    const step3 = await reply(root, 2);
    expect(step3.text).toContain('Paste the task memory samples');
    expect(h.fake.callsTo('usergroups.users.list')[0]?.args.usergroup).toBe('S0ONCALL');

    // The paste step is answered by a file uploaded into the thread.
    const file = h.fake.addFile('F900', 'samples.txt', Buffer.from('# samples\ngrowth=25\n'));
    const event = fileShareEvent({
      user: OWNER,
      channel: CHANNEL,
      threadTs: root.ts,
      parentUserId: h.fake.botUserId,
      files: [file],
    });
    await h.sender.event(eventEnvelope(event));
    const conclusion = await reply(root, 3);
    expect(conclusion.text).toContain('Conclusion: Split the skewed partition');
    expect(JSON.stringify(step3.blocks)).toContain(`<@${OWNER}> answered: *growth 25*`);

    const transcript = await reply(root, 4);
    expect(transcript.text).toContain('Transcript');
    const body = JSON.stringify(transcript.blocks);
    for (const who of [OWNER, GROUP_MEMBER]) expect(body).toContain(who);
    expect(body).toMatch(/start[\s\S]*done[\s\S]*choose[\s\S]*paste/);
    // The upload answered the step; it was not also diagnosed as a log.
    expect(threadReplies(h, CHANNEL, root.ts)).toHaveLength(5);
  });

  it('goes back a step and abandons through the step buttons, with the same checks as answers', async () => {
    h = await startHarness({ oncallUsers: [ONCALL] });
    const { root } = await diagnose();
    await click(h, root, 'Start walkthrough', OWNER);
    const step1 = await reply(root, 0);
    // Nothing answered yet: no Back, but Abandon.
    expect(buttonsOf(step1).map((b) => b.button.text.text)).not.toContain('Back');
    await click(h, step1, 'Done', OWNER);
    const step2 = await reply(root, 1);
    const step2AsFirstShown = structuredClone(step2);

    await click(h, step2, 'Back', STRANGER);
    await waitFor(() => ephemeralFor(STRANGER, `Only <@${OWNER}>`));
    expect(threadReplies(h, CHANNEL, root.ts)).toHaveLength(2);

    await click(h, step2, 'Back', ONCALL);
    const again = await reply(root, 2);
    expect(again.text).toContain('Step 1: Open the failed stage in the Spark UI');
    expect(JSON.stringify(step2.blocks)).toContain(`<@${ONCALL}> answered: *went back a step*`);
    const record = await h.deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: CHANNEL },
      root.ts,
    );
    expect(record?.path).toEqual([]);

    // The same Back on the old screen is stale: the version moved on.
    await click(h, step2AsFirstShown, 'Back', OWNER);
    await waitFor(() => ephemeralFor(OWNER, 'moved on'));
    expect(threadReplies(h, CHANNEL, root.ts)).toHaveLength(3);

    await click(h, again, 'Abandon', OWNER);
    const ended = await reply(root, 3);
    expect(ended.text).toContain(`Walkthrough abandoned by <@${OWNER}>`);
    expect(buttonsOf(again)).toEqual([]);
    const after = await h.deps.walkthroughs.get(record?.id ?? '');
    expect(after.status).toBe('abandoned');
    expect(await h.deps.walkthroughs.listActive({ workspace: 'T1', conversation: CHANNEL })).toEqual([]);
  });

  it('takes a pasted reply in the thread as the answer to a paste step', async () => {
    h = await startHarness();
    const { root } = await diagnose();
    await click(h, root, 'Start walkthrough', OWNER);
    await click(h, await reply(root, 0), 'Done', OWNER);
    await click(h, await reply(root, 1), 'Yes', OWNER);
    await reply(root, 2);
    const chat = threadReply({
      user: OWNER,
      channel: CHANNEL,
      threadTs: root.ts,
      parentUserId: h.fake.botUserId,
      text: 'looking now',
    });
    await h.sender.event(eventEnvelope(chat));
    const paste = threadReply({
      user: OWNER,
      channel: CHANNEL,
      threadTs: root.ts,
      parentUserId: h.fake.botUserId,
      text: '```# samples\ngrowth=3```',
    });
    await h.sender.event(eventEnvelope(paste));
    const conclusion = await reply(root, 3);
    expect(conclusion.text).toContain('Give the executors more memory');
  });

  it('tells the person when a pasted reply does not parse, and keeps waiting', async () => {
    h = await startHarness();
    const { root } = await diagnose();
    await click(h, root, 'Start walkthrough', OWNER);
    await click(h, await reply(root, 0), 'Done', OWNER);
    await click(h, await reply(root, 1), 'Yes', OWNER);
    await reply(root, 2);
    const paste = threadReply({
      user: OWNER,
      channel: CHANNEL,
      threadTs: root.ts,
      parentUserId: h.fake.botUserId,
      text: 'line one\nline two',
    });
    await h.sender.event(eventEnvelope(paste));

    await waitFor(() => ephemeralFor(OWNER, 'does not look like memory samples'));
    expect(threadReplies(h, CHANNEL, root.ts)).toHaveLength(3);
  });

  it('starts one walkthrough when Start is clicked twice at once', async () => {
    // Both clicks pass the "is one running here?" check before either has stored its walkthrough:
    // the worst interleaving, made certain by holding findByThread until both have asked.
    let asked = 0;
    let bothAsked: () => void = () => {};
    const barrier = new Promise<void>((resolve) => {
      bothAsked = resolve;
    });
    h = await startHarness({
      extend: (deps) => ({
        ...deps,
        walkthroughs: new Proxy(deps.walkthroughs, {
          get(target, prop) {
            if (prop === 'findByThread')
              return async (...args: Parameters<typeof target.findByThread>) => {
                if (++asked === 2) bothAsked();
                await barrier;
                return target.findByThread(...args);
              };
            const value = Reflect.get(target, prop);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        }),
      }),
    });
    const { root } = await diagnose();
    await Promise.all([
      click(h, root, 'Start walkthrough', OWNER),
      click(h, root, 'Start walkthrough', OWNER),
    ]);
    await reply(root, 0);
    await waitFor(() => ephemeralFor(OWNER, 'already being started'));
    expect(threadReplies(h, CHANNEL, root.ts)).toHaveLength(1);
    expect(await h.deps.walkthroughs.listActive({ workspace: 'T1', conversation: CHANNEL })).toHaveLength(1);
  });

  it('refuses a second walkthrough in the same thread', async () => {
    h = await startHarness();
    const { root } = await diagnose();
    await click(h, root, 'Start walkthrough', OWNER);
    await reply(root, 0);
    await click(h, root, 'Start walkthrough', OWNER);
    await waitFor(() => ephemeralFor(OWNER, 'already running in this thread'));
  });

  it('lists running walkthroughs with links on /memdoctor status, and starts one with walk', async () => {
    h = await startHarness();
    await h.sender.command(
      slashCommand('walk test-heap-oom', { user: OWNER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
    );
    const root = await waitFor(() => findRoot());
    expect(root.text).toContain('Walkthrough: Test executor heap exhausted');
    await reply(root, 0);
    await h.sender.command(
      slashCommand('status', { user: OWNER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
    );
    const status = await waitFor(() => h.fake.responses[0]);
    const text = JSON.stringify(status.blocks);
    expect(text).toContain(`/archives/${CHANNEL}/p${root.ts.replace('.', '')}|Test executor heap exhausted`);
    expect(text).toContain('Open the failed stage in the Spark UI');
  });
});

describe('a long transcript', () => {
  it('goes up as a file with getUploadURLExternal, the upload, and completeUploadExternal', async () => {
    h = await startHarness({ settings: { transcriptInlineChars: 100 } });
    const { root } = await diagnose();
    await click(h, root, 'Start walkthrough', OWNER);
    await click(h, await reply(root, 0), 'Done', OWNER);
    await click(h, await reply(root, 1), 'No', OWNER);
    const conclusion = await reply(root, 2);
    expect(conclusion.text).toContain('Give the executors more memory');
    const complete = await waitFor(() => h.fake.callsTo('files.completeUploadExternal')[0]);
    expect(complete.args.channel_id).toBe(CHANNEL);
    expect(complete.args.thread_ts).toBe(root.ts);
    const [file] = JSON.parse(complete.args.files ?? '[]') as { id: string }[];
    const upload = h.fake.uploads.get(file?.id ?? '');
    const text = upload?.bytes?.toString('utf8') ?? '';
    expect(upload?.title).toBe('Transcript: Test executor heap exhausted');
    expect(Number(h.fake.callsTo('files.getUploadURLExternal')[0]?.args.length)).toBe(upload?.bytes?.length);
    expect(text).toContain('# Walkthrough: Test executor heap exhausted');
    expect(text).toContain(OWNER);
    expect(threadReplies(h, CHANNEL, root.ts)).toHaveLength(3);
  });
});

describe('a measurement step', () => {
  it('is answered by a reply with the number, in the unit the person typed', async () => {
    h = await startHarness();
    await h.sender.command(
      slashCommand('walk test-gc-pressure', {
        user: OWNER,
        channel: CHANNEL,
        responseUrl: h.fake.responseUrl,
      }),
    );
    const root = await waitFor(() => findRoot());
    const step = await reply(root, 0);
    expect(JSON.stringify(step.blocks)).toContain('Reply in this thread with a percentage from 0 to 100');
    const answer = threadReply({
      user: OWNER,
      channel: CHANNEL,
      threadTs: root.ts,
      parentUserId: h.fake.botUserId,
      text: '25%',
    });
    await h.sender.event(eventEnvelope(answer));
    const conclusion = await reply(root, 1);
    expect(conclusion.text).toContain('The collector is thrashing');
    expect(JSON.stringify(step.blocks)).toContain(`<@${OWNER}> answered: *25%*`);
  });

  it('tells the person privately why an ambiguous figure was not taken, and waits', async () => {
    h = await startHarness();
    await h.sender.command(
      slashCommand('walk test-gc-pressure', {
        user: OWNER,
        channel: CHANNEL,
        responseUrl: h.fake.responseUrl,
      }),
    );
    const root = await waitFor(() => findRoot());
    await reply(root, 0);
    const send = (text: string) =>
      h.sender.event(
        eventEnvelope(
          threadReply({
            user: OWNER,
            channel: CHANNEL,
            threadTs: root.ts,
            parentUserId: h.fake.botUserId,
            text,
          }),
        ),
      );
    await send('0.12');
    const note = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    expect(note.args.text).toContain('"0.12" is ambiguous: 0.12% or a ratio of 0.12 (12%)?');
    await send('12%');
    const conclusion = await reply(root, 1);
    expect(conclusion.text).toContain('The collector is thrashing');
  });
});

describe('a bisection', () => {
  it('ends with the transcript and, in the same thread, the narrowing chart under the name the transcript gives', async () => {
    // The console's test playbook: its procedure bisects four stages.
    h = await startHarness({
      playbooks: loadPlaybooks(fileURLToPath(new URL('../fixtures/playbooks', import.meta.url))),
    });
    await h.sender.command(
      slashCommand('walk test-walk', { user: OWNER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
    );
    const root = await waitFor(() => findRoot());
    await click(h, await reply(root, 0), 'The Java heap', OWNER);
    await reply(root, 1);
    const answer = threadReply({
      user: OWNER,
      channel: CHANNEL,
      threadTs: root.ts,
      parentUserId: h.fake.botUserId,
      text: '40%',
    });
    await h.sender.event(eventEnvelope(answer));
    await click(h, await reply(root, 2), 'Yes: memory keeps growing', OWNER);
    // Each round is a message of its own.
    await click(h, await reply(root, 3), 'No: it behaved', OWNER);
    const transcript = await waitFor(() =>
      threadReplies(h, CHANNEL, root.ts).find((m) => (m.text ?? '').includes('Transcript')),
    );
    expect(JSON.stringify(transcript.blocks)).toContain('](find-leak-narrowing.png)');
    const complete = await waitFor(() => h.fake.callsTo('files.completeUploadExternal')[0]);
    const asked = h.fake.callsTo('files.getUploadURLExternal')[0];
    expect(complete.args.thread_ts).toBe(root.ts);
    expect(asked?.args.filename).toBe('find-leak-narrowing.png');
    expect(asked?.args.alt_txt).toMatch(/4 candidates at the start; .* Found: parse\.$/);
  });
});
