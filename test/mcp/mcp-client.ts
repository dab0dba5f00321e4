import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ROOT } from '../cli/spawn-helpers.ts';

/** `memdoctor mcp` as an agent starts it (the installed command, from dist/), driven by the SDK's own client. */
export interface McpSession {
  client: Client;
  /** What the server wrote to stderr (logs, notes): stdout carries protocol only. */
  stderr(): string;
  /** Transport errors: a line on stdout that is not protocol shows up here. */
  errors: Error[];
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Starts `node bin/memdoctor.mjs mcp` with `env` (nothing of the developer's shell leaks in). */
export async function startMcp(env: Record<string, string>): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'bin', 'memdoctor.mjs'), 'mcp'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', ...env },
    cwd: ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const errors: Error[] = [];
  const client = new Client({ name: 'memdoctor-test', version: '0' });
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    errors,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of a tool result's first content item. */
export function textOf(result: CallToolResult): string {
  const [first] = result.content;
  return first?.type === 'text' ? first.text : '';
}
