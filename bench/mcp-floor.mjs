// The floor for `memdoctor mcp`'s start-up (bench/mcp-startup.ts): an MCP server on the same SDK with
// no tool, no memdoctor code. What it takes is the SDK's own loading, which no change in memdoctor moves.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'floor', version: '0' });
await server.connect(new StdioServerTransport());
process.stdin.once('end', () => void server.close());
