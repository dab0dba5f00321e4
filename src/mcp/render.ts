/**
 * Short text renderings for the tools' `content`: what an agent shows the user or reads when it
 * ignores structured output. The JSON beside them is the contract; these only summarise it.
 */
import type { CaseReport, DiagnosisResult } from '../diagnosis/index.ts';
import type { InputReport } from '../usecases/types.ts';

const MAX_EVIDENCE_SHOWN = 6;

function percent(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

/** One input's report: the top diagnosis in full (cited lines, actions), the others in one line each. */
export function reportText(report: InputReport, lookedFor: readonly string[]): string {
  const out = [`${report.source} (${report.input.lines} lines)`];
  const [top, ...rest] = report.diagnoses;
  if (!top) {
    out.push('No known memory problem recognised.', `Looked for: ${lookedFor.join(', ')}.`);
    out.push(
      'If you know which system this came from, call diagnose again with engine: glue|spark|flink|beam.',
    );
    return out.join('\n');
  }
  out.push(`${top.title} [${top.playbook}, confidence ${percent(top.confidence)}]`);
  if (top.cause) out.push(`Likely cause: ${top.cause}`);
  out.push('Evidence:');
  for (const e of top.evidence.slice(0, MAX_EVIDENCE_SHOWN)) out.push(`  line ${e.line}: ${e.text}`);
  if (top.evidence.length > MAX_EVIDENCE_SHOWN)
    out.push(`  … ${top.evidence.length - MAX_EVIDENCE_SHOWN} more lines`);
  out.push('What to do:');
  for (const [i, action] of top.actions.entries()) out.push(`  ${i + 1}. ${action}`);
  if (rest.length > 0) {
    out.push('Other possibilities:');
    for (const d of rest) out.push(`  - ${d.title} [${d.playbook}, ${percent(d.confidence)}]`);
  }
  out.push(`Walk through the fix step by step: walkthrough_start with playbook "${top.playbook}".`);
  return out.join('\n');
}

/** A diagnosis with what a person may want to know besides it (notes, a model's suggestion). */
export function resultText(
  { report, suggestion, notes }: DiagnosisResult,
  lookedFor: readonly string[],
): string {
  const out = [reportText(report, lookedFor)];
  if (suggestion)
    out.push(
      `A model suggests (not memdoctor's diagnosis): ${suggestion.playbook} (${percent(suggestion.confidence)}): ${suggestion.rationale}`,
    );
  for (const note of notes) out.push(`Note: ${note}`);
  return out.join('\n');
}

/** A case's answer: each group, what joined it, its diagnoses citing `input:line`, the notes. */
export function caseText(report: CaseReport): string {
  const out: string[] = [];
  report.groups.forEach((group, i) => {
    out.push(`Case ${i + 1}: ${group.inputs.join(', ')}`);
    for (const key of group.joinedBy) out.push(`  joined by ${key}`);
    if (group.diagnoses.length === 0) out.push('  no known problem found');
    for (const d of group.diagnoses) {
      out.push(`  ${d.title} [${d.playbook}, ${percent(d.confidence)}]`);
      for (const e of d.evidence.slice(0, MAX_EVIDENCE_SHOWN))
        out.push(`    ${e.input}:${e.line}  ${e.text}`);
      for (const action of d.actions) out.push(`    - ${action}`);
    }
  });
  for (const left of report.leftOut) out.push(`Left out ${left.source}: ${left.reason}`);
  for (const note of report.notes) out.push(`Note: ${note}`);
  return out.join('\n');
}
