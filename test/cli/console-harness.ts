import { PassThrough } from 'node:stream';
import { Console } from '../../src/cli/console/console.ts';
import type { LlmAssist } from '../../src/llm/assist.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../src/walkthrough/index.ts';
import { parseKv, TEST_PARSER_REGISTRY, testPlaybook } from '../walkthrough/helpers.ts';

/**
 * Runs the console in-process over the given input lines, with the test playbook and parser and an
 * optional model assist; returns everything it printed.
 */
export async function runConsole(lines: readonly string[], assist?: LlmAssist): Promise<string> {
  const stdin = new PassThrough();
  let out = '';
  const io = {
    stdin,
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (out += t) },
  };
  const service = new WalkthroughService({
    store: new MemoryWalkthroughStore(),
    parsers: TEST_PARSER_REGISTRY,
    parse: parseKv,
  });
  const options = { playbooks: [testPlaybook()], service, actor: 'alice' };
  const console = new Console(io, assist ? { ...options, assist } : options);
  stdin.end(`${lines.join('\n')}\n`);
  await console.run();
  return out;
}
