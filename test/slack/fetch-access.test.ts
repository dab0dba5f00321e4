import { afterEach, describe, expect, it } from 'vitest';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { FETCH_ID_BLOCK_PREFIX, FETCH_ID_INPUT, VIEW } from '../../src/slack/ids.ts';
import type { ConnectorsConfig } from '../../src/usecases/connectors.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../src/walkthrough/index.ts';
import { fixture } from '../connectors/fakes/rest-fake.ts';
import { FLINK_JOB, flinkFake } from '../connectors/fakes/systems.ts';
import { targetFor, useFake } from '../connectors/support.ts';
import { CHANNEL as FORM_CHANNEL, OWNER, startWith, toJobSlotsForm } from './listeners/fetch-form.ts';
import { click, startWalk, threadReplies } from './support/clicks.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { slashCommand, viewSubmission } from './support/payloads.ts';

// Issue 35 findings 2, 6 and 9: who may fetch, where the answer is shown, and one person's checks
// not holding up another's, through the real app and a fake Slack.

const ALICE = 'UALICE01';
const BOB = 'UBOB0001';
const ONCALL = 'UONCALL1';
const CHANNEL = 'CACCESS1';
const ELSEWHERE = 'CRANDOM1';
const PLAYBOOKS = loadPlaybooks(PLAYBOOKS_DIR);

// Registered first, so its stop runs after the app's (vitest runs after-hooks in reverse).
const flink = useFake(flinkFake);
let h: Harness;
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

async function start(connectors: ConnectorsConfig) {
  h = await startHarness({
    walkthroughs: new WalkthroughService({ store: new MemoryWalkthroughStore() }),
    extend: (base) => ({ ...base, playbooks: PLAYBOOKS, connectors }),
  });
}

function send(text: string, user: string, channel = CHANNEL) {
  return h.sender.command(slashCommand(text, { user, channel, responseUrl: h.fake.responseUrl }));
}

const inChannel = (channel = CHANNEL) => h.fake.messages.filter((m) => m.channel === channel);
const stepTitled = (root: { ts: string }, title: string) =>
  waitFor(() => threadReplies(h, CHANNEL, root.ts).find((m) => m.text?.includes(title)));
/** flink-pending-slots clicked through to free-slots, whose fetch needs no id. */
const TO_FREE_SLOTS: [string, string][] = [
  ['Are all tasks of the job running?', 'Some tasks are not running'],
  ["What do the job's exceptions show?", 'Empty, or only slot timeouts'],
  ['Does the JobManager say the job waits for slots?', 'Yes, it waits'],
  ['Did TaskManagers go away while the job ran?', 'No, they stayed up'],
  ['Does the cluster have as many slots', 'Skip'],
  ['How do the slots compare', 'At least as many slots'],
  ['Does the job use more than one slot sharing group?', 'One group'],
  ['What does a pending request ask for?', 'ResourceProfile{UNKNOWN}'],
];
const audits = () => h.logs.lines.filter((l) => l.audit === 'fetch');

describe('who may fetch, and who sees the answer', () => {
  it('unconfigured: anyone may check, and the answer with its evidence is shown only to the asker', async () => {
    await start({ flink: targetFor(flink.url) });
    await send(`check flink ${FLINK_JOB}`, ALICE, ELSEWHERE);
    const told = await waitFor(() => h.fake.responses[0]);
    const shown = JSON.stringify(told);
    expect(told).toMatchObject({ response_type: 'ephemeral' });
    expect(shown).toContain('Shown only to you');
    expect(shown).toContain(`GET /jobs/${FLINK_JOB}/exceptions`);
    expect(shown).toContain('java.lang.OutOfMemoryError: Java heap space');
    expect(inChannel(ELSEWHERE)).toEqual([]);
  });

  it('showIn: the answer is posted in a listed channel, and the fetch is audited with who, what and where', async () => {
    await start({ flink: targetFor(flink.url), access: { flink: { showIn: [CHANNEL] } } });
    await send(`check flink ${FLINK_JOB}`, ALICE);
    const posted = await waitFor(() => inChannel()[0]);
    expect(JSON.stringify(posted.blocks)).toContain('java.lang.OutOfMemoryError: Java heap space');
    const done = await waitFor(() => audits().find((l) => l.outcome === 'fetched'));
    expect(done).toMatchObject({
      audit: 'fetch',
      kind: 'check',
      connector: 'flink',
      ids: { id: FLINK_JOB },
      surface: 'slack',
      workspace: 'T1',
      user: ALICE,
      channel: CHANNEL,
      audience: 'channel',
      paths: ['/overview', '/taskmanagers', `/jobs/${FLINK_JOB}`, `/jobs/${FLINK_JOB}/exceptions`],
    });
  });

  it('a person not among users or userGroups is refused before any request, and the refusal is audited', async () => {
    await start({
      flink: targetFor(flink.url),
      access: { flink: { users: [BOB], userGroups: ['SONCALL1'], showIn: [CHANNEL] } },
    });
    h.fake.groups.set('SONCALL1', [ONCALL]);
    await send(`check flink ${FLINK_JOB}`, ALICE);
    const told = await waitFor(() => h.fake.responses[0]);
    expect(JSON.stringify(told)).toContain('You are not among the people who may fetch from flink');
    expect(JSON.stringify(told)).toContain('access.flink.users');
    expect(flink.fake.seen).toEqual([]);
    expect(inChannel()).toEqual([]);
    expect(audits()).toEqual([
      expect.objectContaining({ user: ALICE, outcome: 'refused', connector: 'flink' }),
    ]);
  });

  it('a member of a listed user group may fetch', async () => {
    await start({
      flink: targetFor(flink.url),
      access: { flink: { users: [BOB], userGroups: ['SONCALL1'], showIn: [CHANNEL] } },
    });
    h.fake.groups.set('SONCALL1', [ONCALL]);
    await send('check flink', ONCALL);
    await waitFor(() => inChannel()[0]);
    expect(flink.fake.seen.map((s) => s.path)).toEqual(['/overview', '/taskmanagers']);
  });

  it('a channel not listed under channels is refused before any request', async () => {
    await start({ flink: targetFor(flink.url), access: { flink: { channels: [CHANNEL], showIn: [] } } });
    await send('check flink', ALICE, ELSEWHERE);
    const told = await waitFor(() => h.fake.responses[0]);
    expect(JSON.stringify(told)).toContain(`allowed only in the channels ${CHANNEL}`);
    expect(flink.fake.seen).toEqual([]);
  });

  it('unconfigured: a walkthrough in a channel does not fetch into its thread, and asks nothing of the system', async () => {
    await start({ flink: targetFor(flink.url) });
    const root = await startWalk(h, 'flink-pending-slots', { user: ALICE, channel: CHANNEL });
    for (const [title, label] of TO_FREE_SLOTS) await click(h, await stepTitled(root, title), label, ALICE);
    const free = await stepTitled(root, 'Is any slot free?');
    await click(h, free, 'Fetch from Flink JobManager', ALICE);
    const told = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    expect(String(told.args.text)).toContain('shown only to the person who asked');
    expect(String(told.args.text)).toContain('access.flink.showIn');
    expect(flink.fake.seen).toEqual([]);
  });
});

describe('the Fetch form asks who may answer before fetching (finding 6)', () => {
  it("someone who may not answer the walkthrough's steps fetches nothing and is told why", async () => {
    h = await startWith({ flink: targetFor(flink.url) });
    const { jobSlots } = await toJobSlotsForm(h);
    const opened = h.fake.callsTo('views.open').length;
    await click(h, jobSlots, 'Fetch from Flink JobManager…', BOB);
    const call = await waitFor(() => h.fake.callsTo('views.open')[opened]);
    const view = JSON.parse(String(call.args.view)) as { private_metadata: string };
    await h.sender.interaction(
      viewSubmission({
        user: BOB,
        callbackId: VIEW.fetchIds,
        privateMetadata: view.private_metadata,
        values: {
          [`${FETCH_ID_BLOCK_PREFIX}jobId`]: {
            [FETCH_ID_INPUT]: { type: 'plain_text_input', value: FLINK_JOB },
          },
        },
      }),
    );
    const told = await waitFor(() => h.fake.callsTo('chat.postEphemeral').find((c) => c.args.user === BOB));
    expect(String(told.args.text)).toContain(`Only <@${OWNER}>, who started this walkthrough`);
    expect(flink.fake.seen).toEqual([]);
    expect(inChannel(FORM_CHANNEL).length).toBeGreaterThan(0);
  });
});

describe("one person's checks do not hold up another's (finding 9)", () => {
  it("twenty checks from one person: most are refused with a reason, and the on-call engineer's goes ahead of them", async () => {
    await start({ flink: targetFor(flink.url), access: { flink: { showIn: [CHANNEL] } } });
    // Each answer takes a while, as a loaded JobManager's would: the checks overlap.
    flink.fake.override('overview', { body: fixture('flink/overview-sif-flink-1.17.1.json'), delayMs: 100 });
    for (let i = 0; i < 20; i++) await send('check flink', ALICE);
    await send(`check flink ${FLINK_JOB}`, ONCALL);
    await waitFor(() => flink.fake.seen.some((s) => s.path === `/jobs/${FLINK_JOB}/exceptions`));
    const onCallAt = flink.fake.seen.findIndex((s) => s.path === `/jobs/${FLINK_JOB}`);
    // Each of Alice's checks asks for 2 paths; with at most 2 of hers running, few are ahead.
    expect(onCallAt).toBeLessThan(12);
    const refusals = h.fake.responses.filter((r) => JSON.stringify(r).includes('You already have'));
    expect(refusals.length).toBeGreaterThan(0);
    expect(JSON.stringify(refusals[0])).toContain("so nobody's checks hold up the on-call engineer's");
  });
});
