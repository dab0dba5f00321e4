import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { UsageError } from '../../errors.ts';
import { openFile } from '../../file-input.ts';
import {
  type FactValue,
  formatSize,
  listParsers,
  type ParsedOutput,
  parseDump,
} from '../../usecases/parse-dump.ts';
import { answer, guarded } from '../results.ts';
import { ParseOutput } from '../schemas.ts';

function show(key: string, value: FactValue): string {
  if (typeof value === 'number' && /Bytes$/.test(key)) return `${formatSize(value)} (${value})`;
  if (typeof value === 'number' && /Share$/.test(key)) return `${(value * 100).toFixed(1)}%`;
  return String(value);
}

function render(out: ParsedOutput): string {
  const lines = [`${out.format}: ${out.summary}`];
  if (out.verdict) lines.push(`verdict: ${out.verdict}`);
  for (const [key, value] of Object.entries(out.values)) lines.push(`  ${key}: ${show(key, value)}`);
  return lines.join('\n');
}

/** One chunk of pasted text, as a stream the parser reads. */
async function* textChunks(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text, 'utf8');
}

function parsersText(): string {
  return listParsers()
    .map((p) => `${p.id} (${p.title})`)
    .join('; ');
}

type Args = { parser: string; text?: string | undefined; path?: string | undefined };

/** `parse`: a dump or a command's output (pmap, NMT, GC log, jstat...) read by its parser, with its figures. */
export function registerParse(server: McpServer): void {
  server.registerTool(
    'parse',
    {
      title: 'Read a memory dump or command output',
      description: `Reads a dump or command output with memdoctor's parser for it and returns its figures and summary (memdoctor parse --json). Parsers: auto (detect), ${parsersText()}.`,
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
      const source = path ?? 'paste';
      const out = await parseDump(parser, {
        source,
        open: () => (path !== undefined ? openFile(path) : textChunks(text ?? '')),
      });
      return answer(render(out), out);
    }),
  );
}
