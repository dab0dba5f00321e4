/**
 * `memdoctor mcp`: memdoctor as a Model Context Protocol server over stdio, so the agents engineers
 * already use (Claude, Cursor, Copilot...) get memdoctor's cited answer instead of guessing from the
 * log's words. A surface like src/cli and src/slack: it turns tool calls into requests for the same
 * use cases and their results into MCP results; it imports no engine, setup, Redis or other surface.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpDeps } from './deps.ts';
import { registerResources } from './resources.ts';
import { SessionDiagnoses } from './session.ts';
import { registerCalc } from './tools/calc.ts';
import { registerCheck } from './tools/check.ts';
import { registerDiagnose } from './tools/diagnose.ts';
import { registerParse } from './tools/parse.ts';
import { registerPlaybooks } from './tools/playbooks.ts';
import { registerWalkthroughs } from './tools/walkthrough.ts';

const INSTRUCTIONS =
  "memdoctor diagnoses memory trouble in Glue, Spark, Flink and Beam jobs deterministically, citing the log lines each diagnosis rests on. Call diagnose with the user's log (text or file paths) before guessing; give its evidence lines and actions as they are. walkthrough_start walks the user through the fix step by step; ask the user each step's question and pass their answer to walkthrough_answer. calc computes memory budgets; parse reads dumps (pmap, NMT, GC logs); check reads the configured cluster APIs.";

/** The server with every tool and resource registered, not yet connected. */
export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer(
    { name: 'memdoctor', title: 'memdoctor', version: deps.version },
    { capabilities: { resources: { listChanged: true } }, instructions: INSTRUCTIONS },
  );
  const session = new SessionDiagnoses(() => {
    if (server.isConnected()) server.sendResourceListChanged();
  });
  registerDiagnose(server, deps, session);
  registerParse(server);
  registerCalc(server);
  registerCheck(server, deps);
  registerPlaybooks(server, deps);
  registerWalkthroughs(server, deps, session);
  registerResources(server, deps, session);
  return server;
}

type Message = Parameters<NonNullable<StdioServerTransport['onmessage']>>[0];

/**
 * The requests the server is still answering, so that when the client closes stdin (a script piping
 * its requests in, or a client that stops) their answers are sent before the server closes.
 */
function inFlight(transport: StdioServerTransport): { drained(): Promise<void> } {
  let open = 0;
  let idle: (() => void) | undefined;
  const settle = () => {
    open = Math.max(0, open - 1);
    if (open === 0) idle?.();
  };
  const receive = transport.onmessage;
  transport.onmessage = (message: Message) => {
    if ('method' in message && 'id' in message) open += 1;
    // A cancelled request gets no answer.
    if ('method' in message && message.method === 'notifications/cancelled') settle();
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: Message) => {
    try {
      await send(message);
    } finally {
      if ('id' in message && ('result' in message || 'error' in message)) settle();
    }
  };
  return { drained: () => (open === 0 ? Promise.resolve() : new Promise((resolve) => (idle = resolve))) };
}

/**
 * Serves MCP on `stdin`/`stdout` until the client closes its end; resolves once the store and the
 * threads are let go. Nothing but protocol goes to `stdout`: logs go to stderr.
 */
export async function serveMcp(
  deps: McpDeps,
  io: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream },
): Promise<void> {
  const server = createMcpServer(deps);
  const transport = new StdioServerTransport(io.stdin as never, io.stdout as never);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  await server.connect(transport);
  const requests = inFlight(transport);
  // The client going away closes stdin: the end of the session, once what it asked is answered.
  io.stdin.once('end', () => void requests.drained().then(() => server.close()));
  await closed;
  await deps.close();
}
