import type { Suggestion } from '../../llm/triage.ts';

const percent = (n: number): string => `${Math.round(n * 100)}%`;

/**
 * The block for a model's suggestion, set apart and labelled as a model's, not memdoctor's. `next`
 * says how to walk through the playbook it names: a shell command, or the console's own words.
 */
export function renderSuggestion(
  suggestion: Suggestion | undefined,
  next: 'command' | 'none' = 'command',
): string {
  if (!suggestion) return '';
  const out = ['', "-- A model's suggestion (not one of memdoctor's rules; check it before acting) --"];
  if (suggestion.playbook === 'none') {
    out.push(`The model found no playbook that fits (model confidence ${percent(suggestion.confidence)}).`);
  } else {
    out.push(`Playbook: ${suggestion.playbook}  [model confidence ${percent(suggestion.confidence)}]`);
  }
  out.push(`Why: ${suggestion.rationale}`);
  if (suggestion.evidence.length > 0) {
    out.push('Lines it relied on:');
    for (const e of suggestion.evidence) out.push(`  line ${e.line}: ${e.text}`);
  }
  if (suggestion.playbook !== 'none' && next === 'command')
    out.push(`Walk through it: memdoctor walk ${suggestion.playbook}`);
  return `${out.join('\n')}\n`;
}
