import type { StepView } from '../../../walkthrough/index.ts';
import { type Block, context, fitLines, mrkdwn, section } from '../blocks.ts';
import { LIMITS } from '../limits.ts';

/** A bisection round in a thread: the candidates to run with, and the symptom to look for. */
export function bisectionBlocks(view: StepView): Block[] {
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
