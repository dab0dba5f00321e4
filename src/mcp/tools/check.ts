import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { requestText } from '../../connectors/types.ts';
import { type CheckResult, check } from '../../diagnosis/check.ts';
import type { McpDeps } from '../deps.ts';
import { reportText } from '../render.ts';
import { answer, guarded } from '../results.ts';
import { CheckOutput } from '../schemas.ts';

const SYSTEMS = ['flink', 'spark', 'yarn', 'kubernetes', 'glue', 'dataflow'] as const;

/** Each fetched answer (where from, when, its parser's judgement, the fields it cites), then the report. */
function render(result: CheckResult, lookedFor: readonly string[]): string {
  const lines: string[] = [];
  for (const a of result.fetched) {
    lines.push(`fetched ${a.connector} ${requestText(a.path)} at ${a.fetchedAt}`);
    if (a.judgement) lines.push(`  ${a.parser}: ${a.judgement.summary}`);
    for (const c of a.citations) lines.push(`  - ${c}`);
  }
  lines.push(reportText(result.report, lookedFor));
  for (const note of result.notes) lines.push(`Note: ${note}`);
  return lines.join('\n');
}

type Args = { system: (typeof SYSTEMS)[number]; id?: string | undefined };

/**
 * `check`: fetches the evidence from a configured Flink, Spark, YARN, Kubernetes, Glue or Dataflow
 * API (only the URLs MEMDOCTOR_CONNECTORS names, only reading) and diagnoses it, as `memdoctor check`.
 */
export function registerCheck(server: McpServer, deps: McpDeps): void {
  const lookedFor = deps.playbooks.map((p) => p.id);
  server.registerTool(
    'check',
    {
      title: 'Check a running or failed job through its API',
      description:
        'Fetches the evidence from the Flink, Spark, YARN, Kubernetes, AWS Glue or Dataflow API configured in the connectors.yaml that MEMDOCTOR_CONNECTORS names (read-only; no other URL) and diagnoses it (memdoctor check --json).',
      inputSchema: {
        system: z.enum(SYSTEMS),
        id: z
          .string()
          .min(1)
          .optional()
          .describe(
            'flink: the job id (optional); spark, yarn: the application id; kubernetes: <namespace>/<pod>; glue: <job-name>/<run-id>; dataflow: the job id',
          ),
      },
      outputSchema: CheckOutput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    guarded(async ({ system, id }: Args) => {
      const connectors = deps.connectors();
      const request = { system, workspace: 'mcp', ...(id !== undefined ? { id } : {}) };
      const result = await check(request, { connectors, playbooks: deps.playbooks });
      return answer(render(result, lookedFor), { ...result.report, fetched: result.fetched });
    }),
  );
}
