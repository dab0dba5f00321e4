// ANSI CSI/OSC sequences, as terminals and CI consoles add them. Linear: no nested quantifiers.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences is the point.
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;
const ENTITIES: Readonly<Record<string, string>> = {
  '&gt;': '>',
  '&lt;': '<',
  '&amp;': '&',
  '&quot;': '"',
  '&#39;': "'",
  '&#x27;': "'",
};
const ENTITY = /&(?:gt|lt|amp|quot|#39|#x27);/g;
const FENCE = /^\s*(?:>\s?)?```[\w-]*\s*$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: stray control characters are what this removes.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** True for a Markdown code fence line: it carries no log content. */
export function isFence(line: string): boolean {
  return FENCE.test(line);
}

/**
 * A line as the extractors see it: no ANSI colours, Slack's HTML escapes undone, no quote marker,
 * no stray control characters. The line number and the evidence text still come from the raw line.
 */
export function normalise(line: string): string {
  let out = line;
  if (out.includes('\u001b')) out = out.replace(ANSI, '');
  if (out.includes('&')) out = out.replace(ENTITY, (entity) => ENTITIES[entity] ?? entity);
  // Indented quotes too: patterns anchored at the line start (`^\s*MemoryError`) must still see the text.
  if (out.trimStart().startsWith('>')) out = out.replace(/^\s*>+\s?/, '');
  // `(?<!`)`: a closing run is tried from its first backtick only, or a long run costs quadratic time.
  if (out.includes('`')) out = out.replace(/^`+|(?<!`)`+$/g, '');
  return out.replace(CONTROL, ' ');
}

/** The evidence text for a raw line: trimmed, readable, bounded. */
export function evidenceText(line: string): string {
  const clean = normalise(line).trim();
  return clean.length > 500 ? `${clean.slice(0, 500)}…` : clean;
}
