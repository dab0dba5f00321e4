/**
 * A walkthrough driven by an agent over MCP, to its conclusion, with real outputs at its paste
 * steps; and one an agent starts in Redis that the user finishes at the console (memdoctor resume).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisWalkthroughStore } from '../../src/walkthrough/store/redis.ts';
import { assertBuilt, memdoctor, ROOT, testEnv } from '../cli/spawn-helpers.ts';
import { deletePrefix, newRedis, randomPrefix, TEST_REDIS_URL } from '../support/redis.ts';
import { MCP_ENV } from './cli-run.ts';
import { type McpSession, startMcp, textOf } from './mcp-client.ts';

// Captured here on JDK 17 (sources: playbooks/jvm-oom/fixtures/cases.yaml and
// test/engine/parsers/fixtures/SOURCES.md): the heap OOM, the GC log of a leaking heap, a histogram.
const HEAP_PASTE = join(ROOT, 'playbooks/jvm-oom/fixtures/jdk17-oom-heap-space-heap-dump.txt');
const GC_LOG = join(ROOT, 'test/engine/parsers/fixtures/gc-log/jdk17-g1-leak-oom-xlog-gc.log');
const HISTOGRAM = join(ROOT, 'test/engine/parsers/fixtures/class-histogram/jdk17-jmap-histo-live.txt');
const HEAP_DUMP = join(ROOT, 'test/fixtures/heap-dumps/static-cache-oom.hprof.gz');

interface State {
  id: string;
  status: string;
  version: number;
  store: string;
  resume: string;
  answered: { step: string; known: boolean }[];
  step?: { id: string; final: boolean; input?: string; options: { n: number; label: string }[] };
}

const stateOf = (result: { structuredContent?: unknown }) => result.structuredContent as State;

describe('a walkthrough over MCP (memory store)', () => {
  let mcp: McpSession;
  beforeAll(async () => {
    assertBuilt();
    mcp = await startMcp(MCP_ENV);
  });
  afterAll(async () => {
    await mcp?.close();
  });

  it('starts from the last diagnosis, skips what it answers, and reaches the conclusion', async () => {
    await mcp.call('diagnose', { text: readFileSync(HEAP_PASTE, 'utf8') });
    const started = stateOf(await mcp.call('walkthrough_start', {}));
    expect(started).toMatchObject({ status: 'active', store: 'memory', version: 1 });
    expect(started.answered).toEqual([expect.objectContaining({ step: 'kind', known: true })]);
    expect(started.step).toMatchObject({ id: 'gc-log', input: 'output', final: false });

    const stale = await mcp.call('walkthrough_answer', { id: started.id, path: GC_LOG, version: 0 });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toMatch(/is at version 1, not 0: someone answered since/);

    const gc = await mcp.call('walkthrough_answer', { id: started.id, path: GC_LOG, version: 1 });
    expect(stateOf(gc).step).toMatchObject({ id: 'histogram', input: 'output' });
    expect(textOf(gc)).toMatch(/\(answered\) How full is the heap after collections\?: .*27 full/);

    const histogram = readFileSync(HISTOGRAM, 'utf8');
    const atDump = await mcp.call('walkthrough_answer', { id: started.id, answer: histogram });
    expect(stateOf(atDump).step).toMatchObject({ id: 'dump', input: 'dump' });

    // A heap dump is given by its path, read and analysed on this machine (a real dump: its SOURCES.md).
    const done = await mcp.call('walkthrough_answer', { id: started.id, path: HEAP_DUMP });
    expect(stateOf(done)).toMatchObject({ status: 'done', step: { final: true, options: [] } });
    expect(textOf(done)).toMatch(/Conclusion: A leak held by java\.util\.HashMap/);

    const status = await mcp.call('walkthrough_status', { id: started.id });
    expect((status.structuredContent as { transcript: string }).transcript).toMatch(
      /How full is the heap after collections\?/,
    );
    const after = await mcp.call('walkthrough_answer', { id: started.id, answer: '1' });
    expect(textOf(after)).toMatch(/is done: nothing to answer/);
  });

  it('refuses an answer the step cannot take, changing nothing, and undoes one with back', async () => {
    // Started after the heap OOM above: its facts answer the first step here too, as at the console.
    const started = stateOf(await mcp.call('walkthrough_start', { playbook: 'jvm-oom' }));
    expect(started.step).toMatchObject({
      id: 'gc-log',
      options: [{ n: 1, label: 'Skip: I cannot get this' }],
    });
    const wrong = await mcp.call('walkthrough_answer', { id: started.id, answer: 'the heap is full' });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/this does not look like GC log output: run the JVM GC log/);
    const unchanged = await mcp.call('walkthrough_status', { id: started.id });
    expect((unchanged.structuredContent as { walkthrough: State }).walkthrough.version).toBe(started.version);
    const answered = stateOf(await mcp.call('walkthrough_answer', { id: started.id, answer: 'skip' }));
    expect(answered.answered.length).toBeGreaterThan(started.answered.length);
    const back = stateOf(await mcp.call('walkthrough_answer', { id: started.id, answer: 'back' }));
    expect(back.step?.id).toBe(started.step?.id);
    expect(back.version).toBe(answered.version + 1);
  });

  it('refuses to start with nothing diagnosed and no playbook named', async () => {
    const empty = await startMcp(MCP_ENV);
    try {
      const nothing = await empty.call('walkthrough_start', {});
      expect(nothing.isError).toBe(true);
      expect(textOf(nothing)).toMatch(/call diagnose first, or give playbook/);
    } finally {
      await empty.close();
    }
  });
});

describe('a walkthrough an agent starts in Redis, finished at the console', () => {
  const redis = newRedis();
  const prefix = randomPrefix();
  afterAll(async () => {
    await deletePrefix(redis, prefix);
    await redis.quit();
  });

  it('is resumed by memdoctor resume where the agent left it', async () => {
    const env = { ...MCP_ENV, REDIS_URL: TEST_REDIS_URL, MEMDOCTOR_REDIS_PREFIX: prefix };
    const mcp = await startMcp(env);
    let id = '';
    try {
      await mcp.call('diagnose', { text: readFileSync(HEAP_PASTE, 'utf8') });
      const started = stateOf(await mcp.call('walkthrough_start', {}));
      id = started.id;
      expect(started).toMatchObject({ store: 'redis', resume: `memdoctor resume ${id}` });
      await mcp.call('walkthrough_answer', { id, path: GC_LOG });
    } finally {
      await mcp.close();
    }
    expect((await new RedisWalkthroughStore(redis, { prefix }).get(id))?.current).toBe('histogram');

    const shipped = testEnv({ REDIS_URL: TEST_REDIS_URL, MEMDOCTOR_REDIS_PREFIX: prefix });
    delete shipped.MEMDOCTOR_PLAYBOOKS_DIR;
    const console = memdoctor(['resume', id], shipped);
    await console.waitFor(/What fills the heap\?/);
    console.type(HISTOGRAM);
    await console.waitFor(/What holds the heap\?/);
    console.type(HEAP_DUMP);
    await console.waitFor(/== Conclusion: A leak held by java\.util\.HashMap/);
    expect(await console.end()).toBe(0);
    expect((await new RedisWalkthroughStore(redis, { prefix }).get(id))?.status).toBe('done');
  });
});
