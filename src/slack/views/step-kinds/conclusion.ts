import type { StepView } from '../../../walkthrough/index.ts';
import { type Block, fitLines, mrkdwn, section } from '../blocks.ts';
import { LIMITS } from '../limits.ts';

function list(title: string, items: readonly string[]): Block {
  const lines = items.map((t, i) => `${i + 1}. ${mrkdwn(t)}`);
  return section(`*${title}*\n${fitLines(lines, LIMITS.sectionText - 40)}`);
}

/** A conclusion in a thread: the fix, then how to check that it worked. */
export function conclusionBlocks(view: StepView): Block[] {
  return [list('Fix', view.fix ?? []), list('Check that it worked', view.verify ?? [])];
}
