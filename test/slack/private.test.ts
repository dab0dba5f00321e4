import { afterEach, describe, expect, it } from 'vitest';
import { BLOCK, INPUT, PRIVATE_IDS, VIEW } from '../../src/slack/ids.ts';
import { buttonsOf, threadReplies } from './support/clicks.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { blockActionsFromEphemeral } from './support/oncall-payloads.ts';
import { slashCommand, viewSubmission } from './support/payloads.ts';

const HEAP_OOM = 'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n';
const USER = 'UCAROL01';
const CHANNEL = 'CPUBLIC1';

let h: Harness;
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

type Blocks = { type: string; elements?: { action_id: string; value: string; text: { text: string } }[] }[];

/** Clicks "Start walkthrough in a DM" on an ephemeral diagnosis and waits for the DM's first step. */
async function startInDm(blocks: Blocks) {
  const start = blocks.flatMap((b) => b.elements ?? []).find((e) => e.action_id === PRIVATE_IDS.startInDm);
  if (!start) throw new Error(`no DM start button in ${JSON.stringify(blocks)}`);
  await h.sender.interaction(
    blockActionsFromEphemeral({
      user: USER,
      channel: CHANNEL,
      action: { action_id: start.action_id, block_id: 'memdoctor.diagnosis.actions', value: start.value },
      responseUrl: h.fake.responseUrl,
    }),
  );
  const root = await waitFor(() => h.fake.messages.find((m) => m.channel.startsWith('D')));
  return { root, step: await waitFor(() => threadReplies(h, root.channel, root.ts)[0]) };
}

describe('private answers', () => {
  it('/memdoctor private answers only the person, and the walkthrough runs in their DM', async () => {
    h = await startHarness();
    await h.sender.command(
      slashCommand(`private ${HEAP_OOM}`, { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
    );
    const answer = await waitFor(() => h.fake.responses[0]);
    expect(answer.response_type).toBe('ephemeral');
    expect(answer.text).toContain('Test executor heap exhausted');
    expect(JSON.stringify(answer.blocks)).toContain('Only you can see this diagnosis');
    expect(h.fake.callsTo('chat.postMessage')).toEqual([]);

    const { root, step } = await startInDm(answer.blocks as Blocks);
    expect(h.fake.callsTo('conversations.open')[0]?.args.users).toBe(USER);
    expect(root.channel).toBe('DCAROL01');
    expect(step.text).toContain('Step 1');
    expect(buttonsOf(step).map((b) => b.button.text.text)).toContain('Done');
    expect(h.fake.messages.filter((m) => m.channel === CHANNEL)).toEqual([]);
    const record = await h.deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: 'DCAROL01' },
      root.ts,
    );
    expect(record?.owner).toBe(USER);
  });

  it('the paste modal’s "Only me" box gives an ephemeral diagnosis; unticked, it is posted', async () => {
    h = await startHarness();
    const submit = (only: boolean) =>
      h.sender.interaction(
        viewSubmission({
          user: USER,
          callbackId: VIEW.paste,
          privateMetadata: JSON.stringify({ channel: CHANNEL }),
          values: {
            [BLOCK.modalText]: { [INPUT.text]: { type: 'plain_text_input', value: HEAP_OOM } },
            [BLOCK.modalEngine]: { [INPUT.engine]: { type: 'static_select', selected_option: null } },
            [PRIVATE_IDS.modalBlock]: {
              [PRIVATE_IDS.modalInput]: {
                type: 'checkboxes',
                selected_options: only
                  ? [{ text: { type: 'plain_text', text: 'Only me' }, value: PRIVATE_IDS.modalOption }]
                  : [],
              },
            },
          },
        }),
      );
    await submit(true);
    const ephemeral = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    expect(ephemeral.args.user).toBe(USER);
    expect(ephemeral.args.blocks).toContain(PRIVATE_IDS.startInDm);
    expect(h.fake.callsTo('chat.postMessage')).toEqual([]);
    await submit(false);
    const posted = await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
    expect(posted.args.channel).toBe(CHANNEL);
    expect(posted.args.blocks).not.toContain(PRIVATE_IDS.startInDm);
  });
});
