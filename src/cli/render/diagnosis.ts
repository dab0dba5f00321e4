import { reportLines, type TextStyle } from '../../usecases/answer-text.ts';
import type { InputReport } from '../../usecases/types.ts';
import { type Colors, PLAIN } from './colors.ts';

/** What to do when nothing was recognised in a pasted or uploaded input: name the system it came from. */
export const ENGINE_HINT =
  'If you know which system this came from, try again with --engine glue|spark|flink|beam.';

function styleOf(colors: Colors): TextStyle {
  return {
    title: (text) => colors.bold(colors.red(text)),
    warning: colors.yellow,
    command: colors.cyan,
  };
}

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
  const lines = reportLines(report, lookedFor, {
    style: styleOf(colors),
    heading: (r) => colors.dim(`== ${r.source} (${r.input.lines} lines)`),
    whenNone,
    walkHint: (playbook, style) => `Walk through the fix: ${style.command(`memdoctor walk ${playbook}`)}`,
  });
  return `${lines.join('\n')}\n`;
}
