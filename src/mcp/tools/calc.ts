import { readFileSync } from 'node:fs';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { UsageError } from '../../errors.ts';
import { CALC_SYSTEMS, parseFlags } from '../../usecases/calculate.ts';
import { answer, guarded } from '../results.ts';
import { CalcOutput } from '../schemas.ts';

const SYSTEMS = Object.keys(CALC_SYSTEMS) as [string, ...string[]];

/** Reads a file a setting names (Flink's TaskManager list), from the local disk, never writing. */
function readLocalFile(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the ${flag} file "${path}": ${(error as Error).message}`);
  }
}

/** The settings each calculator takes, named as the system names them, for the tool's description. */
function settingsText(): string {
  return Object.values(CALC_SYSTEMS)
    .map((system) => `${system.name}: ${system.summary}; settings ${Object.keys(system.flags).join(', ')}`)
    .join('\n');
}

type Args = { system: string; settings: Record<string, string | number | boolean> };

/** `calc`: a memory budget computed the way Spark, Glue, Flink and Beam/Dataflow compute it. */
export function registerCalc(server: McpServer): void {
  server.registerTool(
    'calc',
    {
      title: 'Compute a memory budget',
      description: `Computes memory budgets the way each system does (memdoctor calc <system> --json). Settings are named as the system names them; sizes like 8g or 1536m.\n${settingsText()}`,
      inputSchema: {
        system: z.enum(SYSTEMS).describe('which memory model'),
        settings: z
          .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
          .default({})
          .describe('e.g. {"spark.executor.memory": "8g", "spark.executor.cores": 4}'),
      },
      outputSchema: CalcOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(async ({ system, settings }: Args) => {
      const calculator = CALC_SYSTEMS[system];
      if (!calculator) throw new UsageError(`calc needs a system: one of ${SYSTEMS.join(', ')}.`);
      const args = Object.entries(settings).map(([key, value]) => `--${key}=${String(value)}`);
      const result = calculator.run(parseFlags(args, calculator.flags, readLocalFile));
      return answer(result.text, result.json as object);
    }),
  );
}
