import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/main.ts';
import type { CommandSpec } from '../../src/cli/registry.ts';

/** Runs the CLI in this process with `input` on stdin: its exit code and what it wrote. */
export async function cli(
  args: readonly string[],
  input = '',
  /** The verbs the run knows: the CLI's own unless a root's (src/memdoctor.ts: serve, mcp) are given. */
  commands?: Readonly<Record<string, CommandSpec>>,
): Promise<{ code: number; out: string; err: string }> {
  const stdin = new PassThrough();
  stdin.end(input);
  let out = '';
  let err = '';
  const code = await runCli(
    args,
    { stdin, stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } },
    commands,
  );
  return { code, out, err };
}
