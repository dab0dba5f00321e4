import type { ChartData } from '../engine/charts/types.ts';
import { UsageError } from '../errors.ts';
import { type FileReader, flagHelp, parseFlags } from './flags.ts';
import { CALC_NAMES, CALC_SYSTEMS } from './registry.ts';
import type { CalcSystem } from './system.ts';

function systemHelp(system: CalcSystem): string {
  return `memdoctor calc ${system.name} [--json] [flags]\n${system.summary}\n${flagHelp(system.flags)}\n`;
}

/**
 * The answer to `calc <system> [--json] [--<setting> value ...]`, the same in the terminal and in
 * chat: a calculator's flags (`calc <system> help`), its JSON with --json, or its text. A mistake in
 * the arguments throws a UsageError that says what was wrong.
 */
export function calcAnswer(args: readonly string[], readFile: FileReader): string {
  return calcAnswerWithChart(args, readFile).text;
}

/** The same answer, with the calculator's memory model as chart data when it draws one. */
export function calcAnswerWithChart(
  args: readonly string[],
  readFile: FileReader,
): { text: string; chart?: ChartData } {
  const [name, ...rest] = args;
  const system = name ? CALC_SYSTEMS[name] : undefined;
  if (!system)
    throw new UsageError(`calc needs a system: one of ${CALC_NAMES}${name ? `; got "${name}"` : ''}.`);
  if (rest[0] === 'help') return { text: systemHelp(system) };
  const json = rest.includes('--json');
  const values = parseFlags(
    rest.filter((a) => a !== '--json'),
    system.flags,
    readFile,
  );
  const result = system.run(values);
  const text = json ? `${JSON.stringify(result.json)}\n` : result.text;
  return result.chart ? { text, chart: result.chart } : { text };
}
