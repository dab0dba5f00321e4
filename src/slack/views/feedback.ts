import { z } from 'zod';
import { type Feedback, FeedbackSchema } from '../../stats/outcomes.ts';
import { FEEDBACK_IDS } from '../ids.ts';
import { actions, type Block, button, context, type MessageView, mrkdwn, section } from './blocks.ts';
import { packJson, readJson } from './codec.ts';

/** What a feedback button carries: the walkthrough, its playbook and the conclusion it reached. */
export const FeedbackRefSchema = z.strictObject({
  w: z.string().min(1).max(200),
  p: z.string().min(1).max(200),
  c: z.string().min(1).max(200),
});
export type FeedbackRef = z.infer<typeof FeedbackRefSchema>;

export const FEEDBACK_LABELS: Readonly<Record<Feedback, string>> = {
  fixed: 'Fixed',
  not_fixed: 'Not fixed',
  partly: 'Partly',
};

export function readFeedbackRef(value: string | undefined): FeedbackRef | undefined {
  return readJson(FeedbackRefSchema, value);
}

/** The answer in a feedback button's action_id (`memdoctor.feedback.answer:fixed`). */
export function feedbackOf(actionId: string): Feedback | undefined {
  const parsed = FeedbackSchema.safeParse(actionId.slice(FEEDBACK_IDS.answerPrefix.length));
  return parsed.success ? parsed.data : undefined;
}

function answerButtons(ref: FeedbackRef) {
  const value = packJson(ref);
  return (Object.keys(FEEDBACK_LABELS) as Feedback[]).map((f) =>
    button(
      FEEDBACK_LABELS[f],
      `${FEEDBACK_IDS.answerPrefix}${f}`,
      value,
      f === 'fixed' ? 'primary' : undefined,
    ),
  );
}

/** Posted after a conclusion's transcript: "Did this fix it?" with its three answers. */
export function feedbackPrompt(ref: FeedbackRef): MessageView {
  return {
    text: 'Did this fix it?',
    blocks: [
      section(
        '*Did this fix it?* Your answer helps the next on-call engineer: memdoctor keeps, per workspace, which conclusions worked (never the pasted text).',
      ),
      actions(FEEDBACK_IDS.actionsBlock, answerButtons(ref)),
    ],
  };
}

/** The prompt once answered: who said what, a way to change it, and "Add a note". */
export function feedbackGiven(ref: FeedbackRef, answer: Feedback, user: string): MessageView {
  const blocks: Block[] = [
    section(`*Did this fix it?* <@${user}> answered: *${mrkdwn(FEEDBACK_LABELS[answer])}*`),
    actions(FEEDBACK_IDS.actionsBlock, [
      ...answerButtons(ref).filter((b) => !b.action_id?.endsWith(`:${answer}`)),
      button('Add a note', FEEDBACK_IDS.note, packJson(ref)),
    ]),
  ];
  return { text: `Did this fix it? ${FEEDBACK_LABELS[answer]}`, blocks };
}

/** The note modal: free text kept beside the answer. */
export function feedbackNoteModal(ref: FeedbackRef, where: { channel: string; ts: string }) {
  return {
    type: 'modal' as const,
    callback_id: FEEDBACK_IDS.noteView,
    private_metadata: packJson({ ...ref, ch: where.channel, ts: where.ts }, 3000),
    title: { type: 'plain_text' as const, text: 'Add a note' },
    submit: { type: 'plain_text' as const, text: 'Save' },
    close: { type: 'plain_text' as const, text: 'Cancel' },
    blocks: [
      {
        type: 'input' as const,
        block_id: FEEDBACK_IDS.noteBlock,
        label: { type: 'plain_text' as const, text: 'What happened after the fix?' },
        element: {
          type: 'plain_text_input' as const,
          action_id: FEEDBACK_IDS.noteInput,
          multiline: true,
          max_length: 500,
        },
      },
      context('Do not paste logs here: the note is kept with the outcome.'),
    ],
  };
}

export const NoteMetadataSchema = FeedbackRefSchema.extend({ ch: z.string().min(1), ts: z.string().min(1) });

/** The line a conclusion shows when it has often not fixed things in this workspace. */
export function fixRateNote(rate: { fixed: number; answered: number }): string {
  return `:warning: In this workspace this fixed ${rate.fixed} of ${rate.answered} cases.`;
}
