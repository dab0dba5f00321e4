import { PassThrough } from 'node:stream';
import { Console } from '../../src/cli/console/console.ts';
import type { ConnectorsConfig } from '../../src/connectors/config.ts';
import { FetchGate } from '../../src/diagnosis/fetch-access.ts';
import type { LlmAssist } from '../../src/llm/assist.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../src/walkthrough/index.ts';
import { parseKv, TEST_PARSER_REGISTRY, testPlaybook } from '../walkthrough/helpers.ts';

/** Output captured from a console run, with the input stream to type into. */
interface Run {
  stdin: PassThrough & { isTTY?: boolean };
  out: () => string;
  done: Promise<void>;
}

function start(options: {
  real?: boolean;
  assist?: LlmAssist;
  tty?: boolean;
  connectors?: ConnectorsConfig;
}): Run {
  const stdin: PassThrough & { isTTY?: boolean } = new PassThrough();
  if (options.tty) stdin.isTTY = true;
  let out = '';
  const stdout = new PassThrough();
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  const io = { stdin, stdout, stderr: stdout };
  const service = options.real
    ? new WalkthroughService({ store: new MemoryWalkthroughStore() })
    : new WalkthroughService({
        store: new MemoryWalkthroughStore(),
        parsers: TEST_PARSER_REGISTRY,
        parse: parseKv,
      });
  const playbooks = options.real ? loadPlaybooks(PLAYBOOKS_DIR) : [testPlaybook()];
  const base = {
    playbooks,
    service,
    actor: 'alice',
    ...(options.connectors
      ? {
          fetching: {
            connectors: options.connectors,
            gate: new FetchGate(options.connectors.access),
            person: { workspace: 'terminal', user: 'alice' },
          },
        }
      : {}),
  };
  const console = new Console(io, options.assist ? { ...base, assist: options.assist } : base);
  return { stdin, out: () => out, done: console.run() };
}

/**
 * Runs the console in-process over the given input lines (a pipe), with the test playbook and
 * parser and an optional model assist; returns everything it printed.
 */
export async function runConsole(lines: readonly string[], assist?: LlmAssist): Promise<string> {
  const run = start(assist ? { assist } : {});
  run.stdin.end(`${lines.join('\n')}\n`);
  await run.done;
  return run.out();
}

/** The same with the shipped playbooks and the real parsers, and these connectors if given. */
export async function runRealConsole(
  lines: readonly string[],
  connectors?: ConnectorsConfig,
): Promise<string> {
  const run = start(connectors ? { real: true, connectors } : { real: true });
  run.stdin.end(`${lines.join('\n')}\n`);
  await run.done;
  return run.out();
}

/**
 * The console on a pretend terminal (readline in terminal mode): `chunks` are written as a
 * terminal sends them, raw bytes with escape sequences, one at a time with a pause between.
 */
export async function runTerminalConsole(chunks: readonly string[]): Promise<string> {
  const run = start({ real: true, tty: true });
  for (const chunk of [...chunks, 'quit\r']) {
    run.stdin.write(chunk);
    await new Promise((r) => setTimeout(r, 30));
  }
  await run.done;
  run.stdin.end();
  return run.out();
}
