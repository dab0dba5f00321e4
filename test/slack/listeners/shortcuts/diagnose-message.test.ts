import { describe, expect, it } from 'vitest';
import { SHORTCUT } from '../../../../src/slack/ids.ts';
import { threadReplies } from '../../support/clicks.ts';
import { harnessPerTest, waitFor } from '../../support/harness.ts';
import { botAlertMessage, messageShortcut } from '../../support/oncall-payloads.ts';

const harness = harnessPerTest();

describe('shortcuts/diagnose-message', () => {
  it("diagnoses the message it is used on into that message's thread, naming who asked", async () => {
    const h = harness();
    const alert = botAlertMessage('java.lang.OutOfMemoryError: Java heap space\n');
    await h.sender.interaction(
      messageShortcut({
        callbackId: SHORTCUT.diagnoseMessage,
        user: 'UONCALL1',
        channel: 'CALERT1',
        message: alert,
        responseUrl: h.fake.responseUrl,
      }),
    );
    const diagnosis = await waitFor(() => threadReplies(h, 'CALERT1', alert.ts)[0]);
    expect(diagnosis.text).toContain('Test executor heap exhausted');
    expect(JSON.stringify(diagnosis.blocks)).toContain('asked by <@UONCALL1>');
  });
});
