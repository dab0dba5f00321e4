import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { runMemdoctor } from '../../src/memdoctor.ts';

/**
 * The client end of a pair of pipes: JSON-RPC messages as lines, as the SDK's stdio transports frame
 * them, so the SDK's Client can drive `memdoctor mcp` run in this process (its code is then covered).
 */
class PipeTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private buffer = '';

  constructor(
    private readonly toServer: PassThrough,
    private readonly fromServer: PassThrough,
  ) {}

  async start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      for (let end = this.buffer.indexOf('\n'); end >= 0; end = this.buffer.indexOf('\n')) {
        const line = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 1);
        try {
          this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
        } catch (error) {
          this.onerror?.(error as Error);
        }
      }
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}

/** `memdoctor mcp` run in this process, with the SDK's client on its stdin and stdout. */
export async function mcpInProcess() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let stderr = '';
  const exited = runMemdoctor(['mcp'], { stdin, stdout, stderr: { write: (t: string) => (stderr += t) } });
  const client = new Client({ name: 'memdoctor-test', version: '0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(new PipeTransport(stdin, stdout));
  return {
    client,
    errors,
    stderr: () => stderr,
    call: async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult,
    /** Closes the client's end: the server ends its session and the command resolves to its exit code. */
    close: async () => {
      await client.close();
      return exited;
    },
  };
}
