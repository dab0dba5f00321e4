import { readFileSync } from 'node:fs';
import { UsageError } from '../../errors.ts';
import { calculateWithChart } from '../../usecases/calculate.ts';
import { shapeText, writeCharts } from '../charts.ts';
import type { Command } from '../command.ts';

/** Reads a file a calculator flag names, from the local disk. */
function readLocalFile(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --${flag} file "${path}": ${(error as Error).message}`);
  }
}

/** `--chart DIR` taken out of the calculator's own flags, which it would refuse. */
function chartDir(args: readonly string[]): { dir?: string; rest: string[] } {
  const at = args.findIndex((a) => a === '--chart' || a.startsWith('--chart='));
  if (at < 0) return { rest: [...args] };
  const arg = args[at] as string;
  const inline = arg.startsWith('--chart=') ? arg.slice('--chart='.length) : undefined;
  const dir = inline ?? args[at + 1];
  if (!dir || dir.startsWith('--')) throw new UsageError('--chart needs a folder to write the charts into');
  return { dir, rest: [...args.slice(0, at), ...args.slice(at + (inline === undefined ? 2 : 1))] };
}

/** `memdoctor calc spark|glue|flink|beam [--json] [--<setting> value ...]`. */
export const calcCommand: Command = {
  async run(args, io) {
    const { dir, rest } = chartDir(args);
    const answer = calculateWithChart(rest, readLocalFile);
    const json = rest.includes('--json');
    io.stdout.write(answer.text + (json ? '' : shapeText(answer.chart, io)));
    if (dir !== undefined) await writeCharts(dir, [answer.chart], io, json);
    return 0;
  },
};
