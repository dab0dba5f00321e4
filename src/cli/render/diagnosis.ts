import type { InputReport } from '../../usecases/types.ts';
import { type Colors, PLAIN } from './colors.ts';

const MAX_EVIDENCE_SHOWN = 6;

function percent(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

/** What to do when nothing was recognised in a pasted or uploaded input: name the system it came from. */
export const ENGINE_HINT =
  'If you know which system this came from, try again with --engine glue|spark|flink|beam.';

/**
 * The human-readable report for one input: top diagnosis in full, alternatives in one line each.
 * `whenNone` is the last line when nothing was recognised (check names its system already).
 */
export function renderReport(
  report: InputReport,
  lookedFor: readonly string[],
  colors: Colors = PLAIN,
  whenNone = ENGINE_HINT,
): string {
  const out: string[] = [colors.dim(`== ${report.source} (${report.input.lines} lines)`)];
  const [top, ...rest] = report.diagnoses;
  if (!top) {
    out.push(colors.yellow('No known memory problem recognised.'));
    out.push(`Looked for: ${lookedFor.join(', ')}.`);
    out.push(whenNone);
    return `${out.join('\n')}\n`;
  }
  out.push(`${colors.bold(colors.red(top.title))}  [${top.playbook}, confidence ${percent(top.confidence)}]`);
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
  out.push(`Walk through the fix: ${colors.cyan(`memdoctor walk ${top.playbook}`)}`);
  return `${out.join('\n')}\n`;
}
