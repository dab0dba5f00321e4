import type { Config } from '../../config.ts';
import { openConsole } from '../../console.ts';
import type { CliIo } from '../command.ts';
import { Console } from './console.ts';

/**
 * `npm start` without Slack credentials: an interactive console on stdin/stdout (a terminal or a
 * pipe, so it can be scripted). Resolves to the exit code.
 */
export async function startConsole(
  config: Config,
  io: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const { playbooks, service, assist, assistOff, connectors, cases, close } = await openConsole(config, {
    assist: true,
  });
  if (assistOff) io.stderr.write(`memdoctor: model assist off: ${assistOff}\n`);
  try {
    const where =
      service.storeKind === 'redis' ? 'walkthroughs are kept in Redis' : 'walkthroughs are kept in memory';
    io.stdout.write(
      `memdoctor console (${playbooks.length} playbooks, ${where}).\nPaste an error, then type . on a line of its own (or press Ctrl-D); or type a file path. Type help for commands.\n`,
    );
    const options = {
      playbooks,
      service,
      cases,
      heapDumpBudget: config.MEMDOCTOR_HEAP_DUMP_BUDGET,
      ...(assist ? { assist } : {}),
      ...(connectors ? { connectors } : {}),
    };
    await new Console(io, options).run();
    return 0;
  } finally {
    await close();
  }
}
