import type { StepView, WalkthroughEvent } from '../../walkthrough/index.ts';
import { ACTION } from '../ids.ts';
import {
  actions,
  type Block,
  type ButtonElement,
  button,
  context,
  fitLines,
  type MessageView,
  mrkdwn,
  section,
} from './blocks.ts';
import { LIMITS } from './limits.ts';
import { packStepButton } from './step-button.ts';
import { answerBlocks, SLACK_STEP_BLOCKS, type SlackStepBlocks } from './step-kinds.ts';

/** The block_id that marks a walkthrough step's message, so it can be found again in its thread. */
export function stepBlockId(walkthrough: string, step: string): string {
  return `memdoctor.step:${walkthrough}:${step}`.slice(0, LIMITS.blockId);
}

/** The kind's own blocks; a kind the registry does not know is shown by how it is answered. */
function kindBlocks(view: StepView): Block[] {
  const blocks = (SLACK_STEP_BLOCKS as Readonly<Record<string, SlackStepBlocks>>)[view.kind];
  return blocks ? blocks(view) : answerBlocks(view);
}

/** A walkthrough step as a thread message: title, text, what the kind needs, and its buttons. */
export function stepMessage(view: StepView, note?: string): MessageView {
  const label = view.final ? 'Conclusion' : `Step ${view.number}`;
  const blocks: Block[] = [
    section(
      `*${label}: ${mrkdwn(view.title)}*\n${mrkdwn(view.text)}`,
      stepBlockId(view.walkthrough, view.step),
    ),
  ];
  if (note) blocks.push(context(note));
  blocks.push(...kindBlocks(view));
  const value = (e: WalkthroughEvent) => packStepButton(view, e);
  if (view.options.length > 0)
    blocks.push(
      actions(
        `memdoctor.step.actions:${view.walkthrough}`.slice(0, LIMITS.blockId),
        view.options.map((o, i) =>
          button(o.label, `${ACTION.stepAnswerPrefix}${i}`, value(o.event), i === 0 ? 'primary' : undefined),
        ),
      ),
    );
  const nav = navButtons(view, value);
  // A block of its own, so a question with many answers can never push Back or Abandon out.
  if (nav.length > 0)
    blocks.push(actions(`memdoctor.step.nav:${view.walkthrough}`.slice(0, LIMITS.blockId), nav));
  return { text: `${label}: ${view.title}`, blocks };
}

/** What the message says a Back or Abandon click did, in place of an answer. */
export const NAV_DONE = { back: 'went back a step', abort: 'abandoned the walkthrough' } as const;

/**
 * Back (where there is an answer to undo) and Abandon (while the walkthrough is active). They send the
 * machine's `back` and `abort` events through the same step-answer path as every other button.
 */
function navButtons(view: StepView, value: (e: WalkthroughEvent) => string): ButtonElement[] {
  const buttons: ButtonElement[] = [];
  if (view.canBack) buttons.push(button('Back', `${ACTION.stepAnswerPrefix}back`, value({ type: 'back' })));
  if (view.status === 'active') {
    const abandon = button('Abandon', `${ACTION.stepAnswerPrefix}abort`, value({ type: 'abort' }), 'danger');
    buttons.push({
      ...abandon,
      // Abandoning cannot be undone from Slack, so it asks first.
      confirm: {
        title: { type: 'plain_text', text: 'Abandon this walkthrough?' },
        text: { type: 'plain_text', text: 'It stops here for everyone; the thread keeps what was answered.' },
        confirm: { type: 'plain_text', text: 'Abandon' },
        deny: { type: 'plain_text', text: 'Keep going' },
        style: 'danger',
      },
    });
  }
  return buttons;
}

/** The step message once answered: the same text without buttons, plus the answer and who gave it. */
export function answeredStep(blocks: readonly Block[], answer: string, user: string): MessageView {
  const kept = blocks.filter((b) => b.type !== 'actions');
  return {
    text: `Answered by ${user}: ${answer}`,
    blocks: [...kept, context(`:white_check_mark: <@${user}> answered: *${mrkdwn(answer)}*`)],
  };
}

/** The note before a step that memdoctor answered itself from the diagnosis. */
export function prefilledNote(
  entries: readonly { title: string; answer: string; because?: string }[],
): string | undefined {
  if (entries.length === 0) return undefined;
  const parts = entries.map(
    (e) => `${mrkdwn(e.title)}: *${mrkdwn(e.answer)}*${e.because ? ` (${mrkdwn(e.because)})` : ''}`,
  );
  return `:robot_face: Answered from the diagnosis: ${parts.join('; ')}`;
}

/** The note that ends an abandoned walkthrough's thread. */
export function abandonedMessage(record: {
  playbook: { title: string };
  audit: readonly { actor: string }[];
}): MessageView {
  const by = record.audit.at(-1)?.actor;
  const text = `Walkthrough abandoned${by ? ` by <@${by}>` : ''}: ${mrkdwn(record.playbook.title)}.`;
  return {
    text,
    blocks: [
      section(`:no_entry_sign: ${text}`),
      context('Start a new walkthrough from the diagnosis to try again.'),
    ],
  };
}

/** The transcript, short enough to post as a message. */
export function transcriptMessage(title: string, transcript: string): MessageView {
  const body = fitLines(mrkdwn(transcript).replace(/```/g, "'''").split('\n'), LIMITS.sectionText - 80);
  return { text: `Transcript: ${title}`, blocks: [section(`*Transcript*\n\`\`\`${body}\`\`\``)] };
}

/** A model's draft incident note, labelled as such, short enough to post as a message. */
export function incidentDraftMessage(draft: string): MessageView {
  const body = fitLines(mrkdwn(draft).replace(/```/g, "'''").split('\n'), LIMITS.sectionText - 80);
  return {
    text: 'Draft incident note (written by a model)',
    blocks: [
      context(
        ':robot_face: *Draft incident note written by a model* from the transcript above; check it before filing.',
      ),
      section(`\`\`\`${body}\`\`\``),
    ],
  };
}

/** `/memdoctor status`: walkthroughs active in this channel, with links to their threads. */
export function statusView(
  items: readonly { title: string; step: string; owner: string; link?: string }[],
): MessageView {
  if (items.length === 0) {
    const text = 'No walkthroughs are running in this channel.';
    return { text, blocks: [section(text)] };
  }
  const lines = items.map(
    (i) =>
      `• ${i.link ? `<${i.link}|${mrkdwn(i.title)}>` : mrkdwn(i.title)}: at _${mrkdwn(i.step)}_, started by <@${i.owner}>`,
  );
  return {
    text: `${items.length} walkthrough(s) running here`,
    blocks: [section(`*Walkthroughs running here*\n${fitLines(lines, LIMITS.sectionText - 40)}`)],
  };
}

/** The thread root of a walkthrough started with `/memdoctor walk`. */
export function walkRootView(playbook: { id: string; title: string }, user: string): MessageView {
  return {
    text: `Walkthrough: ${playbook.title}`,
    blocks: [
      section(`*Walkthrough: ${mrkdwn(playbook.title)}*`),
      context(`Started by <@${user}> · playbook \`${playbook.id}\` · answer the steps in this thread`),
    ],
  };
}
