/**
 * The `memdoctor` command's root: the CLI's verbs, plus `serve`, the Slack app. Only a root may reach
 * both surfaces, so `serve` is added here rather than in src/cli, which knows no Slack.
 */
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import type { CliIo } from './cli/command.ts';
import { runCli } from './cli/main.ts';
import { COMMANDS, type CommandSpec } from './cli/registry.ts';
import type { Config } from './config.ts';
import { ConfigInvalidError, UsageError } from './errors.ts';
import type { McpDeps } from './mcp/deps.ts';
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

const ALERTS: CommandSpec = {
  name: 'alerts',
  summary: 'show offline what an alert payload would route to and which ids it yields (MEMDOCTOR_ALERTS)',
  usage:
    'memdoctor alerts test <payload.json> [--source alertmanager|pagerduty|sns|eventbridge|gcp]\n' +
    '  Reads MEMDOCTOR_ALERTS (routes) and MEMDOCTOR_CONNECTORS (which ids may be checked); sends nothing,\n' +
    '  checks no signature. Exit 0 read, 2 bad usage, an unreadable payload or a bad routing file.',
  load: async () => {
    const [
      { loadConfig, secretFromEnv },
      { loadAlertsConfig },
      { alertsCommand },
      { configuredConnectors },
      ids,
    ] = await Promise.all([
      import('./config.ts'),
      import('./alerts/config.ts'),
      import('./alerts/test-command.ts'),
      import('./setup/connectors.ts'),
      import('./usecases/connectors.ts'),
    ]);
    const config = loadConfig();
    return alertsCommand({
      config: () => {
        if (!config.MEMDOCTOR_ALERTS)
          throw new ConfigInvalidError(
            'set MEMDOCTOR_ALERTS to the routing file to test a payload against (docs/alerts.md)',
          );
        return loadAlertsConfig(config.MEMDOCTOR_ALERTS, (name) => secretFromEnv(name));
      },
      idCheck: () => {
        const connectors = configuredConnectors(config) ?? {};
        return (connector, id) => ids.checkIdProblem(connector, id, connectors);
      },
    });
  },
};

/** The user this process runs as: who answers the walkthroughs an agent starts, as at the console. */
function localUser(): string {
  try {
    return userInfo().username || 'local';
  } catch {
    return 'local';
  }
}

/** Opens on the first call; later calls share it, and a failure is tried again on the next. */
function once<T>(open: () => Promise<T>): { get(): Promise<T>; opened(): Promise<T> | undefined } {
  let pending: Promise<T> | undefined;
  const get = () => {
    pending ??= open().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
  return { get, opened: () => pending };
}

/**
 * What `memdoctor mcp` works with, each part opened on first use (the server answers `initialize`
 * before any is loaded): `diagnose`'s playbooks, model assist and block threads (src/console.ts);
 * the console's and Slack's walkthrough store (Redis when configured); the connectors `check` reads.
 * A bad setting (`problem`) only switches the model help off for diagnoses, as for `diagnose`, and
 * refuses walkthroughs and checks, which would otherwise use another store or API than configured.
 */
function mcpDeps(
  config: Config,
  problem: Error | undefined,
  about: { version: string; actor: string },
): McpDeps {
  const diagnosis = once(async () => (await import('./console.ts')).openDiagnose(config, problem));
  const walkthroughs = once(async () => {
    if (problem) throw problem;
    return (await import('./setup/walkthroughs.ts')).openWalkthroughs(config);
  });
  // The server's one gate, so its caps hold across an agent's calls (counted in serve's Redis when
  // one is configured); audit lines go to stderr's log.
  const fetching = once(async () => {
    if (problem) throw problem;
    const { requiredFetching } = await import('./setup/terminal-fetching.ts');
    const log = (await import('./log.ts')).createLogger(config.LOG_LEVEL);
    const opened = await requiredFetching(config, log);
    if (opened.note) log.warn(opened.note);
    return opened;
  });
  return {
    ...about,
    playbooks: async () => (await diagnosis.get()).playbooks,
    diagnosisContext: async () => (await diagnosis.get()).context(),
    walkthroughs: walkthroughs.get,
    connectors: fetching.get,
    close: async () => {
      const [service, resources, fetched] = await Promise.all([
        walkthroughs.opened()?.catch(() => undefined),
        diagnosis.opened()?.catch(() => undefined),
        fetching.opened()?.catch(() => undefined),
      ]);
      await Promise.all([service?.close(), resources?.close(), fetched?.close()]);
    },
  };
}

/** `memdoctor mcp`: serves MCP on stdin/stdout until the client leaves (docs/mcp.md). */
async function runMcp(args: readonly string[], io: CliIo): Promise<number> {
  if (args.length > 0) throw new UsageError(`mcp takes no arguments; got "${args.join(' ')}".`);
  const [{ loadConfigLeniently, playbooksDirProblem }, { serveMcp }] = await Promise.all([
    import('./config.ts'),
    import('./mcp/server.ts'),
  ]);
  const { config, problem } = loadConfigLeniently();
  if (problem) io.stderr.write(`memdoctor: ${problem.message}\n`);
  // The playbooks load on the first call; a folder that is not there stops the server now, as it
  // stops every other command, where the agent shows it, rather than failing each call.
  const folder = config.MEMDOCTOR_PLAYBOOKS_DIR && playbooksDirProblem(config.MEMDOCTOR_PLAYBOOKS_DIR);
  if (folder) throw new ConfigInvalidError(`✖ ${folder}\n  → at MEMDOCTOR_PLAYBOOKS_DIR`);
  const { version } = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
  const deps = mcpDeps(config, problem, { version, actor: localUser() });
  await serveMcp(deps, { stdin: io.stdin, stdout: io.stdout as NodeJS.WritableStream });
  return 0;
}

/** Every verb `memdoctor` runs. */
export const ALL_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  ...COMMANDS,
  serve: SERVE,
  mcp: MCP,
  alerts: ALERTS,
};

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
