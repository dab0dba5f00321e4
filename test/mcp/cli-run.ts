import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { assertBuilt, ROOT } from '../cli/spawn-helpers.ts';

/** The same environment the MCP tests start the server with. */
export const MCP_ENV = { LOG_LEVEL: 'silent' };

/** `memdoctor <args>` as a user runs it (the built command), for comparing with the MCP server's answers. */
export function runCli(
  args: readonly string[],
  input = '',
): { code: number | null; out: string; err: string } {
  assertBuilt();
  const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'memdoctor.mjs'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...MCP_ENV },
    input,
    encoding: 'utf8',
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}
