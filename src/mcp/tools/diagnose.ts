import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { diagnose, diagnoseCase } from '../../diagnosis/index.ts';
import { UsageError } from '../../errors.ts';
import { openFile, seekableFile } from '../../file-input.ts';
import { ENGINE_HINTS, type EngineHint } from '../../usecases/types.ts';
import type { McpDeps } from '../deps.ts';
import { caseText, resultText } from '../render.ts';
import { answer, guarded } from '../results.ts';
import { DiagnoseOutput } from '../schemas.ts';
import type { SessionDiagnoses } from '../session.ts';

/** Most paths one case reads, as `diagnose --together` (engine/case/read-case.ts's default). */
const MAX_PATHS = 8;

export const DiagnoseInput = {
  text: z
    .string()
    .min(1)
    .optional()
    .describe('the log or error text, as pasted (give text or paths, not both)'),
  paths: z
    .array(z.string().min(1))
    .min(1)
    .max(MAX_PATHS)
    .optional()
    .describe(
      `log files on this machine (plain or .gz), only read; absolute paths, or relative to ${process.cwd()}. One path: diagnose --json; several: read as one case (diagnose --together --json)`,
    ),
  engine: z
    .enum(ENGINE_HINTS)
    .optional()
    .describe('the system the log came from, when the text alone does not show it'),
};

type Args = { text?: string | undefined; paths?: string[] | undefined; engine?: EngineHint | undefined };

/** `diagnose`: what memdoctor's engine recognises in a paste or in files, with the cited lines. */
export function registerDiagnose(server: McpServer, deps: McpDeps, session: SessionDiagnoses): void {
  const lookedFor = deps.playbooks.map((p) => p.id);
  const one = async (source: string, input: Parameters<typeof diagnose>[0]['input'], engine?: EngineHint) => {
    const request = { input, workspace: 'mcp', ...(engine ? { engine } : {}) };
    const result = await diagnose(request, deps.diagnosisContext());
    const json = result.suggestion ? { ...result.report, suggestion: result.suggestion } : result.report;
    const text = resultText(result, lookedFor);
    const kept = session.addResult(source, result, json, text);
    return answer(`${text}\n(diagnosis ${kept.n}: memdoctor://diagnoses/${kept.n})`, json);
  };
  const together = async (paths: readonly string[], engine?: EngineHint) => {
    const inputs = paths.map((path) => ({ source: path, chunks: openFile(path) }));
    const report = await diagnoseCase({ inputs, ...(engine ? { engine } : {}) }, deps.diagnosisContext());
    const text = caseText(report);
    const kept = session.addCase(paths, report, text);
    return answer(`${text}\n(diagnosis ${kept.n}: memdoctor://diagnoses/${kept.n})`, report);
  };
  server.registerTool(
    'diagnose',
    {
      title: 'Diagnose memory trouble',
      description:
        "Diagnoses memory trouble (OOM, container killed, GC overhead, result size, pending slots...) in Glue, Spark, Flink and Beam logs with memdoctor's deterministic engine: ranked playbooks, the lines each rests on, and what to do. Give the pasted text, or the paths of log files.",
      inputSchema: DiagnoseInput,
      outputSchema: DiagnoseOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(async ({ text, paths, engine }: Args) => {
      if ((text === undefined) === (paths === undefined))
        throw new UsageError('diagnose takes text (a paste) or paths (log files), one of the two.');
      if (text !== undefined) return one('paste', { source: 'paste', text }, engine);
      const files = paths ?? [];
      if (files.length > 1) return together(files, engine);
      const [path = ''] = files;
      const seekable = seekableFile(path);
      return one(path, { source: path, chunks: openFile(path), ...(seekable ? { seekable } : {}) }, engine);
    }),
  );
}
