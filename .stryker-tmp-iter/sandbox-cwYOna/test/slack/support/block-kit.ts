/** Slack's published Block Kit limits, checked on every message the fake receives. */
// @ts-nocheck


type Json = Record<string, unknown>;

function textOf(obj: unknown): string {
  return typeof obj === 'object' && obj !== null && typeof (obj as Json).text === 'string'
    ? ((obj as Json).text as string)
    : '';
}

function elementProblems(el: Json, where: string): string[] {
  const out: string[] = [];
  if (typeof el.action_id === 'string' && el.action_id.length > 255) out.push(`${where}: action_id over 255`);
  if (el.type === 'button') {
    if (textOf(el.text).length > 75) out.push(`${where}: button text over 75`);
    if (typeof el.value === 'string' && el.value.length > 2000) out.push(`${where}: button value over 2000`);
  }
  return out;
}

function blockProblems(block: Json, i: number): string[] {
  const where = `blocks[${i}]`;
  const out: string[] = [];
  if (typeof block.block_id === 'string' && block.block_id.length > 255)
    out.push(`${where}: block_id over 255`);
  if (block.type === 'section' && textOf(block.text).length > 3000)
    out.push(`${where}: section text over 3000`);
  if (block.type === 'section' && Array.isArray(block.fields) && block.fields.length > 10)
    out.push(`${where}: more than 10 fields`);
  if (block.type === 'header' && textOf(block.text).length > 150) out.push(`${where}: header over 150`);
  if (block.type === 'actions') {
    const elements = (block.elements ?? []) as Json[];
    if (elements.length > 25) out.push(`${where}: more than 25 elements`);
    const ids = elements.map((e) => e.action_id);
    if (new Set(ids).size !== ids.length) out.push(`${where}: duplicate action_id`);
    elements.forEach((e, j) => {
      out.push(...elementProblems(e, `${where}.elements[${j}]`));
    });
  }
  if (block.type === 'section' && block.accessory)
    out.push(...elementProblems(block.accessory as Json, where));
  return out;
}

/** Every limit a message's blocks break (empty when they are fine). */
export function blockKitProblems(blocks: unknown, max = 50): string[] {
  if (!Array.isArray(blocks)) return ['blocks is not an array'];
  const out: string[] = [];
  if (blocks.length > max) out.push(`${blocks.length} blocks, more than ${max}`);
  blocks.forEach((b, i) => {
    out.push(...blockProblems(b as Json, i));
  });
  return out;
}
