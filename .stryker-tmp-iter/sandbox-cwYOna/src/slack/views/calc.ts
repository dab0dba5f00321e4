// @ts-nocheck
import type { CliResult } from '../cli-bridge.ts';
import { fitLines, LIMITS, type MessageView, mrkdwn, section } from './blocks.ts';

/** The output of `memdoctor calc ...` as a code block. */
export function calcView(args: readonly string[], result: CliResult): MessageView {
  if (!result.available) {
    const text = '`calc` is not available in this build of memdoctor.';
    return { text, blocks: [section(text)] };
  }
  const output = (result.code === 0 ? result.stdout : result.stderr || result.stdout).trimEnd();
  const body = fitLines(mrkdwn(output).split('\n'), LIMITS.sectionText - 80).replace(/```/g, "'''");
  return {
    text: `memdoctor calc ${args.join(' ')}`,
    blocks: [section(`\`memdoctor calc ${mrkdwn(args.join(' '))}\`\n\`\`\`${body}\`\`\``)],
  };
}
