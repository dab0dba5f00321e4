import { fitLines, type MessageView, mrkdwn, section } from './blocks.ts';
import { LIMITS } from './limits.ts';

/** A calculator's answer (see calcAnswer) as a code block under the command that asked for it. */
export function calcView(args: readonly string[], answer: string): MessageView {
  const body = fitLines(mrkdwn(answer.trimEnd()).split('\n'), LIMITS.sectionText - 80).replace(/```/g, "'''");
  return {
    text: `memdoctor calc ${mrkdwn(args.join(' '))}`,
    blocks: [section(`\`memdoctor calc ${mrkdwn(args.join(' '))}\`\n\`\`\`${body}\`\`\``)],
  };
}
