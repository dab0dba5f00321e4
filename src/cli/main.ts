import { readFileSync } from 'node:fs';
import { asMemdoctorError, ErrorCode } from '../errors.ts';
import { packagePath } from '../paths.ts';
import type { CliIo } from './command.ts';
import { COMMANDS, type CommandSpec } from './registry.ts';

/** The verbs a run knows: the CLI's own, and those the composition root adds (src/memdoctor.ts: serve). */
type Commands = Readonly<Record<string, CommandSpec>>;

function help(commands: Commands): string {
  const lines = ['Usage: memdoctor <command> [options]', '', 'Commands:'];
  for (const c of Object.values(commands)) lines.push(`  ${c.name.padEnd(12)} ${c.summary}`);
  lines.push('', "memdoctor help <command> (or <command> --help) shows a command's usage.");
  lines.push('memdoctor --version prints the version.');
  return `${lines.join('\n')}\n`;
}

function version(): string {
  const { version } = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
  return `memdoctor ${version}\n`;
}

function commandHelp(command: CommandSpec): string {
  return `${command.summary}\nUsage: ${command.usage}\n`;
}

/** node:util parseArgs errors, told in one line: which option, and that the usage follows. */
function parserMessage(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) return undefined;
  const option = /'(-[^' ]*)/.exec((error as Error).message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${option ?? ''}`.trim();
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `option ${option ?? ''} needs a value`;
  return (error as Error).message.split('\n')[0] ?? 'bad arguments';
}

/** `help`, `help <command>`, `--help`: resolves to the exit code, or undefined when argv is not a help request. */
function helpRequest(argv: readonly string[], io: CliIo, commands: Commands): number | undefined {
  const [name, topic] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    io.stdout.write(version());
    return 0;
  }
  if (name !== 'help' && name !== '--help' && name !== '-h') return undefined;
  if (!topic) {
    io.stdout.write(help(commands));
    return 0;
  }
  const command = commands[topic];
  if (!command) {
    io.stderr.write(`memdoctor: no command "${topic}".\n${help(commands)}`);
    return 2;
  }
  io.stdout.write(commandHelp(command));
  return 0;
}

/** Runs one CLI invocation; resolves to the exit code (0 ok, 1 a check failed or opt-in "nothing found", 2 bad input). */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  commands: Commands = COMMANDS,
): Promise<number> {
  const [name, ...args] = argv;
  if (!name) {
    io.stderr.write(help(commands));
    return 2;
  }
  const asked = helpRequest(argv, io, commands);
  if (asked !== undefined) return asked;
  const command = commands[name];
  if (!command) {
    io.stderr.write(`memdoctor: unknown command "${name}".\n${help(commands)}`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(commandHelp(command));
    return 0;
  }
  try {
    return await (await command.load()).run(args, io);
  } catch (error) {
    const parser = parserMessage(error);
    const failure = asMemdoctorError(error);
    const usage = parser !== undefined || failure.code === ErrorCode.UsageInvalid;
    io.stderr.write(`memdoctor: ${parser ?? failure.message}${usage ? `\nUsage: ${command.usage}` : ''}\n`);
    return 2;
  }
}
