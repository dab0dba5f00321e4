// @ts-nocheck
import { asMemdoctorError, ErrorCode } from '../errors.ts';
import type { CliIo } from './command.ts';
import { COMMANDS } from './registry.ts';

function help(): string {
  const lines = ['Usage: memdoctor <command> [options]', '', 'Commands:'];
  for (const c of Object.values(COMMANDS)) lines.push(`  ${c.name.padEnd(12)} ${c.summary}`);
  lines.push('', "memdoctor <command> --help shows a command's usage.");
  return `${lines.join('\n')}\n`;
}

/** Runs one CLI invocation; resolves to the exit code (0 ok, 1 findings failed a check, 2 bad input). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    io.stdout.write(help());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr.write(`memdoctor: unknown command "${name}".\n${help()}`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(`Usage: ${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    const failure = asMemdoctorError(error);
    const hint = failure.code === ErrorCode.UsageInvalid ? `\nUsage: ${command.usage}` : '';
    io.stderr.write(`memdoctor: ${failure.message}${hint}\n`);
    return 2;
  }
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain || process.argv[1]?.endsWith('cli/main.ts')) {
  runCli(process.argv.slice(2), {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  }).then((code) => {
    process.exitCode = code;
  });
}
