/**
 * The `memdoctor` command's root: the CLI's verbs, plus `serve`, the Slack app. Only a root may reach
 * both surfaces, so `serve` is added here rather than in src/cli, which knows no Slack.
 */
import { runCli } from './cli/main.ts';
import { COMMANDS, type CommandSpec } from './cli/registry.ts';

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

/** Every verb `memdoctor` runs. */
export const ALL_COMMANDS: Readonly<Record<string, CommandSpec>> = { ...COMMANDS, serve: SERVE };

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
