import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { UsageError } from '../../errors.ts';
import { guarded } from '../results.ts';
import { ParseOutput } from '../schemas.ts';

type Args = { parser: string; text?: string | undefined; path?: string | undefined };

/** `parse`: a dump or a command's output (pmap, NMT, GC log, jstat...) read by its parser, with its figures. */
export function registerParse(server: McpServer): void {
  server.registerTool(
    'parse',
    {
      title: 'Read a memory dump or command output',
      description:
        "Reads a dump or command output (pmap -x, jcmd VM.native_memory summary, GC log, jmap -histo, kubectl describe pod, Spark event log, Flink REST JSON, memray stats...) with memdoctor's parser for it and returns its figures and summary (memdoctor parse --json). parser auto detects the format; an unknown parser id's error lists every id.",
      inputSchema: {
        parser: z.string().min(1).default('auto').describe('a parser id, or auto to detect it'),
        text: z.string().min(1).optional().describe('the output, as pasted (give text or path, not both)'),
        path: z
          .string()
          .min(1)
          .optional()
          .describe('a file on this machine holding the output (plain or .gz), only read'),
      },
      outputSchema: ParseOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(async ({ parser, text, path }: Args) => {
      if ((text === undefined) === (path === undefined))
        throw new UsageError(
          'parse takes text (the pasted output) or path (a file holding it), one of the two.',
        );
      // Loaded on the first call: the parsers are not needed to answer initialize or list the tools.
      const { runParse } = await import('./parse-run.ts');
      return runParse(parser, { text, path });
    }),
  );
}
