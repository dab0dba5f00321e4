// @ts-nocheck
import { Readable } from 'node:stream';
import type { CliIo } from '../cli/command.ts';
import { COMMANDS } from '../cli/registry.ts';

/** What a CLI verb printed, for replying in Slack. */
export interface CliResult {
  available: boolean;
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a `memdoctor <verb>` from the CLI registry with an io that captures its output, so chat and
 * terminal share one implementation. A verb this build does not have reports `available: false`.
 */
export async function runCliVerb(verb: string, args: readonly string[]): Promise<CliResult> {
  const command = COMMANDS[verb];
  if (!command) return { available: false, code: 2, stdout: '', stderr: '' };
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdin: Readable.from([]),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  };
  const code = await command.run(args, io);
  return { available: true, code, stdout, stderr };
}
