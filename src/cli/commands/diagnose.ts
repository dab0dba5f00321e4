import { parseArgs } from 'node:util';
import { loadConfigLeniently } from '../../config.ts';
import { type DiagnoseResources, openDiagnose } from '../../console.ts';
import { type DiagnosisResult, diagnose } from '../../diagnosis/index.ts';
import { asMemdoctorError, UsageError } from '../../errors.ts';
import type { ChartData } from '../../usecases/chart-images.ts';
import { ENGINE_HINTS, type EngineHint } from '../../usecases/types.ts';
import { CHART_OPTION, shapeText, writeCharts } from '../charts.ts';
import type { CliIo, Command } from '../command.ts';
import { openInput, seekableInput } from '../input.ts';
import { terminalColors } from '../render/colors.ts';
import { renderReport } from '../render/diagnosis.ts';
import { progressLine } from '../render/progress.ts';
import { renderSuggestion } from '../render/suggestion.ts';
import { caseLimits, runTogether } from './diagnose-together.ts';

function parse(args: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      engine: { type: 'string' },
      'fail-when-none': { type: 'boolean', default: false },
      together: { type: 'boolean', default: false },
      'max-inputs': { type: 'string' },
      'max-bytes': { type: 'string' },
      ...CHART_OPTION,
    },
  });
  const engine = values.engine;
  if (engine !== undefined && !(ENGINE_HINTS as readonly string[]).includes(engine)) {
    throw new UsageError(`--engine must be one of ${ENGINE_HINTS.join(', ')}; got "${engine}".`);
  }
  return {
    json: values.json ?? false,
    failWhenNone: values['fail-when-none'] ?? false,
    together: values.together ?? false,
    limits: caseLimits(values),
    engine: engine as EngineHint | undefined,
    // No file: read stdin, as grep does, so `kubectl logs pod | memdoctor diagnose` works.
    files: positionals.length > 0 ? positionals : ['-'],
    chartDir: values.chart,
  };
}

/** `--json`: the contract's report, with the model's suggestion beside it when there is one. */
function renderJson({ report, suggestion }: DiagnosisResult): string {
  return `${JSON.stringify(suggestion ? { ...report, suggestion } : report)}\n`;
}

/**
 * Exit code: 2 when an input could not be read, else (with --fail-when-none, grep's habit) 1 when
 * no input had a diagnosis, else 0.
 */
function exitCode(failed: boolean, failWhenNone: boolean, recognised: boolean): number {
  if (failed) return 2;
  return failWhenNone && !recognised ? 1 : 0;
}

/** Stdin is a terminal: nothing was piped, so say how to give the log instead of waiting silently. */
export const TERMINAL_HINT =
  'memdoctor: reading the log from the terminal: paste it, then press Ctrl-D on a line of its own (or pipe it: kubectl logs POD | memdoctor diagnose; or name a file: memdoctor diagnose driver.log)\n';

function hintOnTerminal(files: readonly string[], io: CliIo): void {
  if (files.includes('-') && (io.stdin as { isTTY?: boolean }).isTTY === true) io.stderr.write(TERMINAL_HINT);
}

/**
 * What to tell of the threads for large inputs: that they could not start, or that one failed while
 * reading (the reports are complete either way: what the threads did not read was read on one thread).
 */
export function threadNotes(startFailure: string | undefined, lost: string | undefined): string[] {
  const notes: string[] = [];
  if (startFailure)
    notes.push(
      `memdoctor: the threads for large inputs could not start (${startFailure}); read on one thread\n`,
    );
  if (lost)
    notes.push(
      `memdoctor: a thread reading part of a large input failed (${lost}); that part and the rest of the input were read on one thread, so the report is complete. To read on one thread from the start: MEMDOCTOR_DIAGNOSE_THREADS=0\n`,
    );
  return notes;
}

type DiagnoseOptions = ReturnType<typeof parse>;

/** Each input on its own, in input order: its report on stdout, its notes and failures on stderr. */
async function diagnoseEach(
  { files, json, engine }: DiagnoseOptions,
  resources: DiagnoseResources,
  io: CliIo,
): Promise<{ failed: boolean; recognised: boolean; charts: ChartData[] }> {
  const charts: ChartData[] = [];
  const lookedFor = resources.playbooks.map((p) => p.id);
  const colors = terminalColors(io.stdout);
  let failed = false;
  let recognised = false;
  for (const file of files) {
    try {
      const seekable = seekableInput(file);
      const input = { source: file, chunks: openInput(file, io.stdin), ...(seekable ? { seekable } : {}) };
      const progress = progressLine(file === '-' ? 'stdin' : file, io.stderr);
      const onHeapDumpRead = progress ? { onHeapDumpRead: progress.onRead } : {};
      const result = await diagnose(
        { input, engine, workspace: 'cli', ...onHeapDumpRead },
        resources.context(),
      ).finally(() => progress?.end());
      if (result.report.diagnoses.length > 0) recognised = true;
      for (const note of result.notes) io.stderr.write(`memdoctor: ${note}\n`);
      io.stdout.write(
        json
          ? renderJson(result)
          : renderReport(result.report, lookedFor, colors) +
              shapeText(result.chart, io) +
              renderSuggestion(result.suggestion),
      );
      if (result.chart) charts.push(result.chart);
    } catch (error) {
      failed = true;
      io.stderr.write(`memdoctor: ${asMemdoctorError(error).message}\n`);
    }
  }
  return { failed, recognised, charts };
}

/** `memdoctor diagnose [--json] [--engine E] [FILE...]`: one report per input, in input order. */
export const diagnoseCommand: Command = {
  async run(args, io: CliIo) {
    const options = parse(args);
    const { json, failWhenNone, engine, files, together, limits } = options;
    hintOnTerminal(files, io);
    // A bad setting only switches the optional model help off: the diagnosis needs none of them.
    const { config, problem } = loadConfigLeniently();
    const resources = await openDiagnose(config, problem);
    if (resources.assistOff) io.stderr.write(`memdoctor: model assist off: ${resources.assistOff}\n`);
    if (together && files.length > 1) {
      // One input with --together is today's diagnosis, byte for byte: diagnoseEach.
      const { playbooks, heapDumpBudget } = resources.context();
      const context = { playbooks, ...(heapDumpBudget !== undefined ? { heapDumpBudget } : {}) };
      const { recognised } = await runTogether({ files, json, engine, limits }, context, io);
      await resources.close();
      return exitCode(false, failWhenNone, recognised);
    }
    const { failed, recognised, charts } = await diagnoseEach(options, resources, io);
    if (options.chartDir !== undefined) await writeCharts(options.chartDir, charts, io, json);
    for (const note of threadNotes(resources.blocksFailure(), resources.blocksLost())) io.stderr.write(note);
    await resources.close();
    return exitCode(failed, failWhenNone, recognised);
  },
};
