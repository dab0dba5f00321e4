import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { recordFeedbackNote } from '../../../usecases/record-outcome.ts';
import type { SlackDeps } from '../../deps.ts';
import { feedbackTarget } from '../../feedback-gate.ts';
import { FEEDBACK_IDS } from '../../ids.ts';
import { readJson } from '../../views/codec.ts';
import { NoteMetadataSchema } from '../../views/feedback.ts';

type Args = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/**
 * The note modal submitted: the note is kept with the walkthrough's answer (for those who may give
 * it, feedback-gate.ts); the person hears of it in the thread.
 */
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
    const user = body.user.id;
    const tell = (text: string) =>
      client.chat.postEphemeral({ channel: meta.ch, user, thread_ts: meta.ts, text });
    // The modal's metadata came back from the client: checked against the record like a click.
    const target = await feedbackTarget(deps, client, meta.w, { user, workspace });
    if (!target.ok) {
      deps.log.info({ walkthrough: meta.w, user, why: target.why }, 'feedback note refused');
      if (target.text) await tell(target.text);
      return;
    }
    const kept = { workspace, walkthrough: target.record.id, text: note };
    if (!(await recordFeedbackNote(deps, kept))) return;
    deps.log.info(
      { walkthrough: target.record.id, playbook: target.ref.p, chars: note.length },
      'feedback note kept',
    );
    await tell('Thanks: your note is kept with this outcome.');
  };
}
