// @ts-nocheck
import type { ParsedOutput, Parser } from '../../../src/engine/parsers/types.ts';
import { ParseFailedError } from '../../../src/errors.ts';
import {
  MemoryWalkthroughStore,
  WalkthroughService,
  type WalkthroughStore,
} from '../../../src/walkthrough/index.ts';

/** A test parser: `key=value` lines after a `# samples` header. */
export function parseKv(parserId: string, text: string): ParsedOutput {
  if (parserId !== 'test-kv') throw new ParseFailedError(`unknown parser "${parserId}"`);
  const lines = text.trim().split('\n');
  if (lines[0]?.trim() !== '# samples')
    throw new ParseFailedError('this does not look like memory samples: paste the sampler output.');
  const values: Record<string, number> = {};
  for (const line of lines.slice(1)) {
    const [k, v] = line.split('=');
    if (k && v) values[k.trim()] = Number(v);
  }
  return { format: 'test-kv', facts: [], values, summary: `growth ${values.growth ?? '?'}` };
}

const TEST_PARSER: Parser = {
  id: 'test-kv',
  title: 'memory samples',
  howToGet: '`sample-memory --every 10s`',
  detect: (head) => head[0]?.trim() === '# samples',
  create: () => {
    throw new Error('the Slack tests parse through parseKv');
  },
};

/** The real walkthrough service, with the test parser, over the given store (memory by default). */
export function testWalkthroughs(store: WalkthroughStore = new MemoryWalkthroughStore()): WalkthroughService {
  return new WalkthroughService({ store, parsers: { 'test-kv': TEST_PARSER }, parse: parseKv });
}
