/**
 * The `memdoctor` command's root: the CLI's verbs, plus `serve`, the Slack app. Only a root may reach
 * both surfaces, so `serve` is added here rather than in src/cli, which knows no Slack.
 */
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import type { CliIo } from './cli/command.ts';
import { runCli } from './cli/main.ts';
import { COMMANDS, type CommandSpec } from './cli/registry.ts';
import { UsageError } from './errors.ts';
import { packagePath } from './paths.ts';

const SERVE: CommandSpec = {
  name: 'serve',
  summary: 'run the Slack app (needs SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET; never the console)',
  usage: 'memdoctor serve   (configured by the environment; see README "Slack")',
  // Loaded only for `serve`: the other verbs never pay for Bolt.
  load: async () => {
    const { serve } = await import('./serve.ts');
    return { run: () => serve() };
  },
};

const MCP: CommandSpec = {
  name: 'mcp',
  summary: 'serve memdoctor to AI agents (Claude, Cursor, VS Code...) as an MCP server on stdin/stdout',
  usage:
    'memdoctor mcp   (speaks the Model Context Protocol on stdin/stdout; logs go to stderr; see docs/mcp.md)',
  // Loaded only for `mcp`: the other verbs never pay for the MCP SDK.
  load: async () => ({ run: runMcp }),
};

/** The user this process runs as: who answers the walkthroughs an agent starts, as at the console. */
function localUser(): string {
  try {
    return userInfo().username || 'local';
  } catch {
    return 'local';
  }
}

/** `memdoctor mcp`: builds what the server uses (src/console.ts), then serves until the client leaves. */
async function runMcp(args: readonly string[], io: CliIo): Promise<number> {
  if (args.length > 0) throw new UsageError(`mcp takes no arguments; got "${args.join(' ')}".`);
  const [{ loadConfigLeniently }, { openMcp }, { serveMcp }] = await Promise.all([
    import('./config.ts'),
    import('./console.ts'),
    import('./mcp/server.ts'),
  ]);
  const { config, problem } = loadConfigLeniently();
  if (problem) io.stderr.write(`memdoctor: ${problem.message}\n`);
  const { version } = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
  const deps = await openMcp(config, problem, { version, actor: localUser() });
  await serveMcp(deps, { stdin: io.stdin, stdout: io.stdout as NodeJS.WritableStream });
  return 0;
}

/** Every verb `memdoctor` runs. */
export const ALL_COMMANDS: Readonly<Record<string, CommandSpec>> = { ...COMMANDS, serve: SERVE, mcp: MCP };

/** Runs one invocation with every verb; resolves to the exit code. */
export function runMemdoctor(argv: readonly string[], io: Parameters<typeof runCli>[1]): Promise<number> {
  return runCli(argv, io, ALL_COMMANDS);
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain || process.argv[1]?.endsWith('src/memdoctor.ts')) {
  runMemdoctor(process.argv.slice(2), {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  }).then((code) => {
    process.exitCode = code;
  });
}
