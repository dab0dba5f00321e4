import type { StepKindName, StepView } from '../../walkthrough/index.ts';
import { type Block, context, fitLines, mrkdwn, section } from './blocks.ts';
import { LIMITS } from './limits.ts';

/** The blocks a step's kind adds between its title and text and its buttons. */
export type SlackStepBlocks = (view: StepView) => Block[];

/** How a step is answered in a thread, from its input: a reply with a value or command output, an uploaded dump. */
export function answerBlocks(view: StepView): Block[] {
  if (view.input === 'value')
    return [context(`:straight_ruler: Reply in this thread with ${mrkdwn(view.hint ?? 'a number')}.`)];
  if (view.input === 'output') {
    const how = view.parser ? `Run ${mrkdwn(view.parser.howToGet)}, then r` : 'R';
    return [context(`:clipboard: ${how}eply in this thread with its output, or upload it as a file.`)];
  }
  if (view.input === 'dump')
    return [
      context(
        ':floppy_disk: Upload the heap dump (.hprof, or .hprof.gz) in this thread: memdoctor reads it and answers this step.',
      ),
    ];
  return [];
}

/** A bisection round in a thread: the candidates to run with, and the symptom to look for. */
function bisectionBlocks(view: StepView): Block[] {
  const b = view.bisection;
  if (!b) return [];
  return [
    section(
      `*Round ${b.round}*: run with these ${b.testWith.length} of ${b.remaining.length} candidates left (of ${b.total}):\n` +
        fitLines(
          b.testWith.map((c) => `• \`${mrkdwn(c)}\``),
          LIMITS.sectionText - 200,
        ),
    ),
    context(`Does it show: ${mrkdwn(b.symptom)}?`),
  ];
}

function list(title: string, items: readonly string[]): Block {
  const lines = items.map((t, i) => `${i + 1}. ${mrkdwn(t)}`);
  return section(`*${title}*\n${fitLines(lines, LIMITS.sectionText - 40)}`);
}

/** A conclusion in a thread: the fix, then how to check that it worked. */
function conclusionBlocks(view: StepView): Block[] {
  return [list('Fix', view.fix ?? []), list('Check that it worked', view.verify ?? [])];
}

/**
 * Every step kind's Slack view, each beside its entry: a kind shown by how it is answered alone takes
 * answerBlocks (its buttons follow in the step message). A Record over the kind names, so a kind added
 * to STEP_KINDS without a view here fails the type check.
 */
export const SLACK_STEP_BLOCKS: Readonly<Record<StepKindName, SlackStepBlocks>> = {
  instruction: answerBlocks,
  question: answerBlocks,
  measurement: answerBlocks,
  paste: answerBlocks,
  bisection: bisectionBlocks,
  'heap-dump': answerBlocks,
  conclusion: conclusionBlocks,
};
