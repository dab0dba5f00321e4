import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { UsageError } from '../../errors.ts';
import { ENGINE_HINTS, type EngineHint } from '../../usecases/types.ts';
import type { McpDeps } from '../deps.ts';
import { guarded } from '../results.ts';
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
      // Loaded on the first call: the engine is not needed to answer initialize or list the tools.
      const { runDiagnose } = await import('./diagnose-run.ts');
      return runDiagnose(deps, session, { text, paths: paths ?? [], engine });
    }),
  );
}
