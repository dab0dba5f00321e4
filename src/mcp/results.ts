import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { asMemdoctorError } from '../errors.ts';

/** A tool's answer: the short text a person reads, and the JSON an agent reads (the CLI's --json). */
export function answer(text: string, structured: object): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured as Record<string, unknown> };
}

/** A tool error (MCP `isError`) with the message the CLI prints for the same mistake. */
export function failure(error: unknown): CallToolResult {
  return {
    content: [{ type: 'text', text: `memdoctor: ${asMemdoctorError(error).message}` }],
    isError: true,
  };
}

/**
 * A tool's handler that never throws: whatever goes wrong (a missing file, a bad setting, a store
 * that is down) comes back as a tool error the agent can read and act on, and the server goes on.
 */
export function guarded<A>(run: (args: A) => Promise<CallToolResult>): (args: A) => Promise<CallToolResult> {
  return async (args) => {
    try {
      return await run(args);
    } catch (error) {
      return failure(error);
    }
  };
}
