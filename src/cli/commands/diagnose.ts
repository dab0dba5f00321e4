import { parseArgs } from 'node:util';
import { loadConfigLeniently } from '../../config.ts';
import { type DiagnosisResult, diagnose } from '../../diagnosis/index.ts';
import { ENGINE_HINTS, type EngineHint } from '../../engine/index.ts';
import { asMemdoctorError, UsageError } from '../../errors.ts';
import { openAssist } from '../../setup/assist.ts';
import { configuredPlaybooks } from '../../setup/playbooks.ts';
import type { CliIo, Command } from '../command.ts';
import { openInput } from '../input.ts';
import { renderReport } from '../render/diagnosis.ts';
import { renderSuggestion } from '../render/suggestion.ts';

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

/** `--json`: the contract's report, with the model's suggestion beside it when there is one. */
function renderJson({ report, suggestion }: DiagnosisResult): string {
  return `${JSON.stringify(suggestion ? { ...report, suggestion } : report)}\n`;
}

/** `memdoctor diagnose [--json] [--engine E] FILE...`: one report per input, in input order. */
export const diagnoseCommand: Command = {
  name: 'diagnose',
  summary: 'diagnose logs or pasted errors (files, .gz, or - for stdin)',
  usage: 'memdoctor diagnose [--json] [--engine glue|spark|flink|beam] FILE... (- reads stdin)',
  async run(args, io: CliIo) {
    const { json, engine, files } = parse(args);
    // A bad setting only switches the optional model help off: the diagnosis needs none of them.
    const { config, problem } = loadConfigLeniently();
    const playbooks = configuredPlaybooks(config);
    const lookedFor = playbooks.map((p) => p.id);
    const { assist, off } = openAssist(config, problem ? { problem } : {});
    if (off) io.stderr.write(`memdoctor: model assist off: ${off}\n`);
    let failed = false;
    for (const file of files) {
      try {
        const input = { source: file, chunks: openInput(file, io.stdin) };
        const result = await diagnose({ input, engine, workspace: 'cli' }, { playbooks, assist });
        for (const note of result.notes) io.stderr.write(`memdoctor: ${note}\n`);
        io.stdout.write(
          json
            ? renderJson(result)
            : renderReport(result.report, lookedFor) + renderSuggestion(result.suggestion),
        );
      } catch (error) {
        failed = true;
        io.stderr.write(`memdoctor: ${asMemdoctorError(error).message}\n`);
      }
    }
    await assist?.close();
    return failed ? 2 : 0;
  },
};
