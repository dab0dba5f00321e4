import { describe, expect, it } from 'vitest';
import { BLOCK, INPUT, VIEW } from '../../../../src/slack/ids.ts';
import { pasteModal } from '../../../../src/slack/views/paste-modal.ts';
import { harnessPerTest, waitFor } from '../../support/harness.ts';
import { viewSubmission } from '../../support/payloads.ts';

const harness = harnessPerTest();
const modal = pasteModal({ channel: 'CPASTE1' });

const submit = (text: string) =>
  viewSubmission({
    user: 'UALICE01',
    callbackId: VIEW.paste,
    privateMetadata: modal.private_metadata ?? '',
    values: { [BLOCK.modalText]: { [INPUT.text]: { type: 'plain_text_input', value: text } } },
  });

describe('views/paste-submitted', () => {
  it("closes the modal and posts the diagnosis in the command's channel", async () => {
    const h = harness();
    const res = await h.sender.interaction(submit('java.lang.OutOfMemoryError: Java heap space\n'));
    expect(res.status).toBe(200);
    const post = await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
    expect(post.args.channel).toBe('CPASTE1');
    expect(post.args.text).toContain('Test executor heap exhausted');
  });

  it('keeps the modal open with an error when nothing was pasted', async () => {
    const h = harness();
    const res = await h.sender.interaction(submit('  '));
    expect(await res.json()).toEqual({
      response_action: 'errors',
      errors: { [BLOCK.modalText]: 'Paste the error or log first.' },
    });
    expect(h.fake.callsTo('chat.postMessage')).toEqual([]);
  });
});
