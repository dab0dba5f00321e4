import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CONNECTOR_NAMES } from '../../usecases/connector-names.ts';
import type { McpDeps } from '../deps.ts';
import { guarded } from '../results.ts';
import { CheckOutput } from '../schemas.ts';

const SYSTEMS = CONNECTOR_NAMES;

type Args = { system: (typeof SYSTEMS)[number]; id?: string | undefined };

/**
 * `check`: fetches the evidence from a configured Flink, Spark, YARN, Kubernetes, Glue or Dataflow
 * API (only the URLs MEMDOCTOR_CONNECTORS names, only reading) and diagnoses it, as `memdoctor check`.
 */
export function registerCheck(server: McpServer, deps: McpDeps): void {
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
      const { runCheck } = await import('./check-run.ts');
      return runCheck(deps, { system, id });
    }),
  );
}
