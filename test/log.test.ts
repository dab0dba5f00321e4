import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createLlmAssist } from '../src/llm/assist.ts';
import { childFor, createLogger } from '../src/log.ts';
import { boltLogger } from '../src/slack/bolt-logger.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../src/walkthrough/index.ts';
import { LogSink } from './slack/support/harness.ts';
import { repeatedKeys, topLevelKeys } from './support/log-keys.ts';
import { parseKv, TEST_PARSER_REGISTRY, testPlaybook } from './walkthrough/helpers.ts';

/*
 * Issue 13, item 8: every line of a child logger carried "module" twice ("module":"slack",
 * "module":"bolt"): pino appends a child's bindings to its parent's. Lines are read from a sink as
 * text, since JSON.parse keeps only the last of a repeated key.
 */
function sinkLines(sink: LogSink): string[] {
  return sink.raw.split('\n').filter(Boolean);
}

describe('the key reader the tests use', () => {
  it('sees a repeated key that JSON.parse hides', () => {
    const line = '{"level":30,"module":"slack","module":"bolt","msg":"a \\"module\\": b","x":{"module":1}}';
    expect(topLevelKeys(line)).toEqual(['level', 'module', 'module', 'msg', 'x']);
    expect(repeatedKeys(line)).toEqual(['module']);
    expect(JSON.parse(line).module).toBe('bolt');
  });
});

describe('child loggers name their part once', () => {
  it('the Slack app, Bolt, the WebClient, the walkthrough service and the model assist', async () => {
    const sink = new LogSink();
    const slack = createLogger('debug', sink).child({ module: 'slack' });
    const bolt = boltLogger(slack, []);
    bolt.info('bolt line');
    bolt.setName('web-api:WebClient:0');
    bolt.debug('client line');
    const service = new WalkthroughService({
      store: new MemoryWalkthroughStore(),
      parsers: TEST_PARSER_REGISTRY,
      parse: parseKv,
      logger: slack,
    });
    await service.start({
      playbook: testPlaybook(),
      where: { workspace: 'T1', conversation: 'C1' },
      owner: 'U1',
    });
    await service.close();
    const assist = createLlmAssist(
      loadConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }),
      {
        log: slack,
      },
    );
    await assist?.close();
    childFor(childFor(slack, 'walkthrough'), 'store').warn('three deep');

    const lines = sinkLines(sink);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.flatMap(repeatedKeys)).toEqual([]);
    const parts = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parts.map((p) => [p.module, p.component, p.part, p.msg])).toEqual(
      expect.arrayContaining([
        ['slack', 'bolt', undefined, 'bolt line'],
        ['slack', 'bolt', 'web-api:WebClient:0', 'client line'],
        ['slack', 'walkthrough', undefined, 'walkthrough started'],
        ['slack', 'walkthrough', 'store', 'three deep'],
      ]),
    );
  });

  it('a logger without a module gets `module`', () => {
    const sink = new LogSink();
    childFor(createLogger('info', sink), 'llm', { model: 'm' }).info('x');
    expect(JSON.parse(sinkLines(sink)[0] ?? '{}')).toMatchObject({ module: 'llm', model: 'm' });
  });
});
