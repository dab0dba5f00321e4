import type { Config } from '../../config.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../playbooks/load.ts';
import { openStore, WalkthroughService } from '../../walkthrough/index.ts';
import type { CliIo } from '../command.ts';
import { Console } from './console.ts';

/** The playbooks the configuration points at (MEMDOCTOR_PLAYBOOKS_DIR, else the shipped ones). */
export function configuredPlaybooks(config: Config) {
  return loadPlaybooks(config.MEMDOCTOR_PLAYBOOKS_DIR ?? PLAYBOOKS_DIR);
}

/** Opens the configured store (Redis with REDIS_URL, else memory) behind a walkthrough service. */
export async function openService(config: Config): Promise<WalkthroughService> {
  return new WalkthroughService({ store: await openStore(config) });
}

/**
 * `npm start` without Slack credentials: an interactive console on stdin/stdout (a terminal or a
 * pipe, so it can be scripted). Resolves to the exit code.
 */
export async function startConsole(
  config: Config,
  io: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const playbooks = configuredPlaybooks(config);
  const service = await openService(config);
  try {
    const where =
      service.storeKind === 'redis' ? 'walkthroughs are kept in Redis' : 'walkthroughs are kept in memory';
    io.stdout.write(
      `memdoctor console (${playbooks.length} playbooks, ${where}).\nPaste an error and end it with an empty line (or Ctrl-D), or type a file path. Type help for commands.\n`,
    );
    await new Console(io, { playbooks, service }).run();
    return 0;
  } finally {
    await service.close();
  }
}
