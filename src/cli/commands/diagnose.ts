import { parseArgs } from 'node:util';
import { type Config, loadConfigLeniently } from '../../config.ts';
import { type DiagnosisResult, diagnose } from '../../diagnosis/index.ts';
import { ENGINE_HINTS, type EngineHint } from '../../engine/index.ts';
import { asMemdoctorError, UsageError } from '../../errors.ts';
import type { AssistChoice } from '../../setup/assist.ts';
import { BlockPool } from '../../setup/block-pool.ts';
import { configuredPlaybooks } from '../../setup/playbooks.ts';
import type { CliIo, Command } from '../command.ts';
import { openInput } from '../input.ts';
import { terminalColors } from '../render/colors.ts';
import { renderReport } from '../render/diagnosis.ts';
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
  };
}

/** `--json`: the contract's report, with the model's suggestion beside it when there is one. */
function renderJson({ report, suggestion }: DiagnosisResult): string {
  return `${JSON.stringify(suggestion ? { ...report, suggestion } : report)}\n`;
}

/** The model assist, loaded (with the openai client) only when a model is configured or misconfigured. */
async function assistFor(config: Config, problem: Error | undefined): Promise<AssistChoice> {
  if (!problem && config.OPENAI_API_KEY === undefined) return {};
  const { openAssist } = await import('../../setup/assist.ts');
  return openAssist(config, problem ? { problem } : {});
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

/** `memdoctor diagnose [--json] [--engine E] [FILE...]`: one report per input, in input order. */
export const diagnoseCommand: Command = {
  async run(args, io: CliIo) {
    const { json, failWhenNone, engine, files, together, limits } = parse(args);
    hintOnTerminal(files, io);
    // A bad setting only switches the optional model help off: the diagnosis needs none of them.
    const { config, problem } = loadConfigLeniently();
    const playbooks = configuredPlaybooks(config);
    const lookedFor = playbooks.map((p) => p.id);
    const { assist, off } = await assistFor(config, problem);
    const colors = terminalColors(io.stdout);
    if (off) io.stderr.write(`memdoctor: model assist off: ${off}\n`);
    let failed = false;
    let recognised = false;
    const threads = config.MEMDOCTOR_DIAGNOSE_THREADS;
    if (together && files.length > 1) {
      // One input with --together is today's diagnosis, byte for byte: the loop below.
      const { recognised } = await runTogether({ files, json, engine, limits }, { playbooks }, io);
      await assist?.close();
      return exitCode(false, failWhenNone, recognised);
    }
    const blocks = threads > 0 ? new BlockPool(threads) : undefined;
    for (const file of files) {
      try {
        const input = { source: file, chunks: openInput(file, io.stdin) };
        const context = { playbooks, assist, ...(blocks ? { blocks: blocks.options } : {}) };
        const result = await diagnose({ input, engine, workspace: 'cli' }, context);
        if (result.report.diagnoses.length > 0) recognised = true;
        for (const note of result.notes) io.stderr.write(`memdoctor: ${note}\n`);
        io.stdout.write(
          json
            ? renderJson(result)
            : renderReport(result.report, lookedFor, colors) + renderSuggestion(result.suggestion),
        );
      } catch (error) {
        failed = true;
        io.stderr.write(`memdoctor: ${asMemdoctorError(error).message}\n`);
      }
    }
    if (blocks?.failure)
      io.stderr.write(
        `memdoctor: the threads for large inputs could not start (${blocks.failure}); read on one thread\n`,
      );
    await Promise.all([assist?.close(), blocks?.close()]);
    return exitCode(failed, failWhenNone, recognised);
  },
};
