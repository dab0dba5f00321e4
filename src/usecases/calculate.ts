import { calcAnswer, calcAnswerWithChart } from '../calc/answer.ts';
import type { FileReader } from '../calc/flags.ts';

export { parseFlags } from '../calc/flags.ts';
export { CALC_SYSTEMS } from '../calc/registry.ts';

export type { FileReader };

/**
 * The calc use case: `calc <system> [--json] [--<setting> value ...]` answered the same in the
 * terminal and in chat. The surface says how a file a flag names is read (the disk, or refused).
 */
export function calculate(args: readonly string[], readFile: FileReader): string {
  return calcAnswer(args, readFile);
}

/** The same answer with what to draw of it (the memory model as stacked bars), for `--chart` and Slack. */
export function calculateWithChart(
  args: readonly string[],
  readFile: FileReader,
): ReturnType<typeof calcAnswerWithChart> {
  return calcAnswerWithChart(args, readFile);
}
