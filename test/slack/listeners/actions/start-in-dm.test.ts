import { describe, expect, it } from 'vitest';
import { PRIVATE_IDS } from '../../../../src/slack/ids.ts';
import { threadReplies } from '../../support/clicks.ts';
import { harnessPerTest, waitFor } from '../../support/harness.ts';
import { blockActionsFromEphemeral } from '../../support/oncall-payloads.ts';
import { slashCommand } from '../../support/payloads.ts';

const harness = harnessPerTest();
type Blocks = { elements?: { action_id: string; value: string }[] }[];

describe('actions/start-in-dm', () => {
  it("runs a private diagnosis' walkthrough in the person's DM and says so", async () => {
    const h = harness();
    const user = 'UCAROL01';
    await h.sender.command(
      slashCommand('private java.lang.OutOfMemoryError: Java heap space', {
        user,
        channel: 'CPRIV01',
        responseUrl: h.fake.responseUrl,
      }),
    );
    const answer = await waitFor(() => h.fake.responses[0]);
    const start = (answer.blocks as Blocks)
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === PRIVATE_IDS.startInDm);
    expect(start).toBeDefined();
    await h.sender.interaction(
      blockActionsFromEphemeral({
        user,
        channel: 'CPRIV01',
        action: {
          action_id: PRIVATE_IDS.startInDm,
          block_id: 'memdoctor.diagnosis.actions',
          value: start?.value ?? '',
        },
        responseUrl: h.fake.responseUrl,
      }),
    );
    const root = await waitFor(() => h.fake.messages.find((m) => m.channel.startsWith('D')));
    expect((await waitFor(() => threadReplies(h, root.channel, root.ts)[0])).text).toContain('Step 1');
    const said = await waitFor(() => h.fake.responses.find((r) => String(r.text).includes('your DM')));
    expect(said).toMatchObject({ response_type: 'ephemeral', replace_original: false });
  });
});
