import type { types } from '@slack/bolt';
import { LIMITS } from './limits.ts';

export type Block = types.KnownBlock;
export type ButtonElement = types.Button;

/** A message: fallback text for notifications and the blocks that render it. */
export interface MessageView {
  text: string;
  blocks: Block[];
}

/** Cuts text to `max` characters, marking the cut with an ellipsis. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Escapes the three characters Slack's mrkdwn treats as markup. */
export function mrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Joins lines until the next one would pass `max` characters (reserving room for the note), and
 * says how many were left out: "… 7 more lines".
 */
export function fitLines(lines: readonly string[], max: number): string {
  const kept: string[] = [];
  let size = 0;
  const reserve = 40;
  for (const [i, line] of lines.entries()) {
    const room = max - size - (i < lines.length - 1 ? reserve : 0);
    if (line.length + 1 > room) {
      const left = lines.length - kept.length;
      kept.push(`… ${left} more line${left === 1 ? '' : 's'}`);
      return kept.join('\n');
    }
    kept.push(line);
    size += line.length + 1;
  }
  return kept.join('\n');
}

export function section(text: string, blockId?: string): Block {
  return {
    type: 'section',
    text: { type: 'mrkdwn', text: cut(text, LIMITS.sectionText) },
    ...(blockId ? { block_id: blockId } : {}),
  };
}

export function header(text: string): Block {
  return { type: 'header', text: { type: 'plain_text', text: cut(text, LIMITS.headerText), emoji: true } };
}

export function context(text: string): Block {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: cut(text, LIMITS.contextText) }] };
}

export function button(
  text: string,
  actionId: string,
  value: string,
  style?: 'primary' | 'danger',
): ButtonElement {
  return {
    type: 'button',
    text: { type: 'plain_text', text: cut(text, LIMITS.buttonText), emoji: true },
    action_id: actionId,
    value: cut(value, LIMITS.buttonValue),
    ...(style ? { style } : {}),
  };
}

export function actions(blockId: string, elements: ButtonElement[]): Block {
  return { type: 'actions', block_id: blockId, elements: elements.slice(0, LIMITS.actionsElements) };
}

/** Keeps a message within the block limit, replacing the overflow with one note. */
export function capBlocks(blocks: Block[], max: number = LIMITS.blocksPerMessage): Block[] {
  if (blocks.length <= max) return blocks;
  return [...blocks.slice(0, max - 1), context(`… ${blocks.length - max + 1} more blocks not shown`)];
}
