/**
 * Short text renderings for the tools' `content`: what an agent shows the user or reads when it
 * ignores structured output. The JSON beside them is the contract; these only summarise it.
 */
import type { CaseReport, DiagnosisResult } from '../diagnosis/index.ts';
import { caseLines, percent, reportLines } from '../usecases/answer-text.ts';
import type { InputReport } from '../usecases/types.ts';

/** One input's report: the top diagnosis in full (cited lines, actions), the others in one line each. */
export function reportText(report: InputReport, lookedFor: readonly string[]): string {
  return reportLines(report, lookedFor, {
    heading: (r) => `${r.source} (${r.input.lines} lines)`,
    whenNone:
      'If you know which system this came from, call diagnose again with engine: glue|spark|flink|beam.',
    walkHint: (playbook) =>
      `Walk through the fix step by step: walkthrough_start with playbook "${playbook}".`,
  }).join('\n');
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
  return caseLines(report, (engine) => `call diagnose again with engine: ${engine}`).join('\n');
}
