// @ts-nocheck
import { parseArgs } from 'node:util';
import { diagnoseStream, ENGINE_HINTS, type EngineHint } from '../../engine/index.ts';
import { asMemdoctorError, UsageError } from '../../errors.ts';
import { DiagnoseAssist, renderSuggestion } from '../../llm/diagnose-assist.ts';
import { loadPlaybooks } from '../../playbooks/load.ts';
import type { CliIo, Command } from '../command.ts';
import { openInput } from '../input.ts';
import { renderReport } from '../render/diagnosis.ts';

function parse(args: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, engine: { type: 'string' } },
  });
  if (positionals.length === 0) throw new UsageError('diagnose needs at least one file, or - for stdin.');
  const engine = values.engine;
  if (engine !== undefined && !(ENGINE_HINTS as readonly string[]).includes(engine)) {
    throw new UsageError(`--engine must be one of ${ENGINE_HINTS.join(', ')}; got "${engine}".`);
  }
  return { json: values.json ?? false, engine: engine as EngineHint | undefined, files: positionals };
}

/** `memdoctor diagnose [--json] [--engine E] FILE...`: one report per input, in input order. */
export const diagnoseCommand: Command = {
  name: 'diagnose',
  summary: 'diagnose logs or pasted errors (files, .gz, or - for stdin)',
  usage: 'memdoctor diagnose [--json] [--engine glue|spark|flink|beam] FILE... (- reads stdin)',
  async run(args, io: CliIo) {
    const { json, engine, files } = parse(args);
    const playbooks = loadPlaybooks();
    const lookedFor = playbooks.map((p) => p.id);
    // Optional model help (docs/llm.md): a no-op unless OPENAI_API_KEY is set.
    const assist = DiagnoseAssist.create(playbooks, io.stderr);
    let failed = false;
    for (const file of files) {
      try {
        const input = assist.input(file, openInput(file, io.stdin));
        const { book: _book, ...report } = await diagnoseStream(file, input, playbooks, { engine });
        const suggestion = await assist.suggestion(report, engine);
        io.stdout.write(
          json
            ? `${JSON.stringify(suggestion ? { ...report, suggestion } : report)}\n`
            : renderReport(report, lookedFor) + renderSuggestion(suggestion),
        );
      } catch (error) {
        failed = true;
        io.stderr.write(`memdoctor: ${asMemdoctorError(error).message}\n`);
      }
    }
    await assist.close();
    return failed ? 2 : 0;
  },
};
