// @ts-nocheck
import type { Config } from '../../config.ts';
import { asMemdoctorError } from '../../errors.ts';
import { createLlmAssist, type LlmAssist } from '../../llm/assist.ts';
import { createLogger } from '../../log.ts';
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

/** The model assist when one is configured; a configuration error turns it off with a note. */
function consoleAssist(config: Config, io: CliIo): LlmAssist | undefined {
  try {
    return createLlmAssist(config, { log: createLogger('silent') });
  } catch (error) {
    io.stderr.write(`memdoctor: model assist off: ${asMemdoctorError(error).message}\n`);
    return undefined;
  }
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
  const assist = consoleAssist(config, io);
  try {
    const where =
      service.storeKind === 'redis' ? 'walkthroughs are kept in Redis' : 'walkthroughs are kept in memory';
    io.stdout.write(
      `memdoctor console (${playbooks.length} playbooks, ${where}).\nPaste an error, then type . on a line of its own (or press Ctrl-D); or type a file path. Type help for commands.\n`,
    );
    await new Console(io, { playbooks, service, ...(assist ? { assist } : {}) }).run();
    return 0;
  } finally {
    await assist?.close();
    await service.close();
  }
}
