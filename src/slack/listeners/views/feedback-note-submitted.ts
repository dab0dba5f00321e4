import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { recordFeedbackNote } from '../../../usecases/record-outcome.ts';
import type { SlackDeps } from '../../deps.ts';
import { FEEDBACK_IDS } from '../../ids.ts';
import { readJson } from '../../views/codec.ts';
import { NoteMetadataSchema } from '../../views/feedback.ts';

type Args = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** The note modal submitted: the note is kept with the walkthrough's answer; the thread hears of it. */
export function feedbackNoteSubmitted(deps: SlackDeps) {
  return async ({ ack, view, body, client }: Args): Promise<void> => {
    const note = view.state.values[FEEDBACK_IDS.noteBlock]?.[FEEDBACK_IDS.noteInput]?.value?.trim() ?? '';
    if (note === '') {
      await ack({ response_action: 'errors', errors: { [FEEDBACK_IDS.noteBlock]: 'Write the note first.' } });
      return;
    }
    await ack();
    const meta = readJson(NoteMetadataSchema, view.private_metadata);
    const workspace = body.team?.id ?? body.user.team_id;
    if (!meta || !workspace) return;
    if (!(await recordFeedbackNote(deps, { workspace, walkthrough: meta.w, text: note }))) return;
    deps.log.info({ walkthrough: meta.w, playbook: meta.p, chars: note.length }, 'feedback note kept');
    await client.chat.postEphemeral({
      channel: meta.ch,
      user: body.user.id,
      thread_ts: meta.ts,
      text: 'Thanks: your note is kept with this outcome.',
    });
  };
}
