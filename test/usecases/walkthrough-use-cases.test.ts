import { describe, expect, it } from 'vitest';
import { MemoryOutcomeStore } from '../../src/stats/memory.ts';
import { answerStep } from '../../src/usecases/answer-step.ts';
import { handOver } from '../../src/usecases/hand-over.ts';
import { readStats } from '../../src/usecases/read-stats.ts';
import { startRefusal, startWalkthrough, walkablePlaybook } from '../../src/usecases/start-walkthrough.ts';
import {
  MemoryWalkthroughStore,
  WalkthroughService,
  type WalkthroughStore,
} from '../../src/walkthrough/index.ts';
import { parseKv, TEST_PARSER_REGISTRY, testPlaybook } from '../walkthrough/helpers.ts';

const where = { workspace: 'T1', conversation: 'C1' };

/** The memory store, with every call it gets counted by method. */
function countedStore(): { store: WalkthroughStore; calls: Record<string, number> } {
  const real = new MemoryWalkthroughStore();
  const calls: Record<string, number> = {};
  const store = new Proxy(real, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls[String(name)] = (calls[String(name)] ?? 0) + 1;
        return value.apply(target, args);
      };
    },
  });
  return { store, calls };
}

function context() {
  const { store, calls } = countedStore();
  const walkthroughs = new WalkthroughService({ store, parsers: TEST_PARSER_REGISTRY, parse: parseKv });
  const outcomes = new MemoryOutcomeStore();
  return { context: { walkthroughs, outcomes, playbooks: [testPlaybook()] }, calls };
}

describe('answer a step', () => {
  it('reads once and writes once, and counts nothing for a step in the middle', async () => {
    const { context: ctx, calls } = context();
    const started = await startWalkthrough(ctx, {
      playbook: testPlaybook(),
      where,
      owner: 'U1',
      thread: '1.0',
    });
    for (const key of Object.keys(calls)) delete calls[key];
    const event = { type: 'choose', answer: 'heap' } as const;
    const result = await answerStep(ctx, { walkthrough: started.id, event, actor: 'U1', expectedVersion: 1 });
    expect(result.kind).toBe('answered');
    expect(calls).toEqual({ get: 1, replace: 1 });
    if (result.kind === 'answered') expect(result.before.current).toBe('which-limit');
  });

  it('refuses someone who may not answer, on the record it read, before writing', async () => {
    const { context: ctx, calls } = context();
    const started = await startWalkthrough(ctx, { playbook: testPlaybook(), where, owner: 'U1' });
    const asked: string[] = [];
    const mayAnswer = async (owner: string) => {
      asked.push(owner);
      return false;
    };
    const event = { type: 'choose', answer: 'heap' } as const;
    const result = await answerStep(ctx, { walkthrough: started.id, event, actor: 'U9', mayAnswer });
    expect(result).toMatchObject({ kind: 'not-allowed', error: { owner: 'U1' } });
    expect(asked).toEqual(['U1']);
    expect(calls.replace).toBeUndefined();
  });

  it('refuses a stale answer with the walkthrough as it is now and the step the person saw', async () => {
    const { context: ctx } = context();
    const started = await startWalkthrough(ctx, { playbook: testPlaybook(), where, owner: 'U1' });
    const first = { walkthrough: started.id, actor: 'U2', expectedVersion: started.version };
    await answerStep(ctx, { ...first, event: { type: 'choose', answer: 'heap' } });
    const late = await answerStep(ctx, {
      ...first,
      actor: 'U3',
      step: 'which-limit',
      event: { type: 'choose', answer: 'container' },
    });
    expect(late.kind).toBe('stale');
    if (late.kind !== 'stale') return;
    expect(late.step).toBe('which-limit');
    expect(late.current?.path.at(-1)).toMatchObject({ step: 'which-limit', by: 'U2' });
    expect(late.error.message).toMatch(/already answered by U2/);
  });

  it('says a walkthrough is gone, and counts one that finishes', async () => {
    const { context: ctx } = context();
    const gone = await answerStep(ctx, {
      walkthrough: 'T1-C1-000000000000',
      event: { type: 'done' },
      actor: 'U1',
    });
    expect(gone.kind).toBe('gone');
    const started = await startWalkthrough(ctx, {
      playbook: testPlaybook(),
      where,
      owner: 'U1',
      thread: '1.0',
    });
    const aborted = await answerStep(ctx, {
      walkthrough: started.id,
      event: { type: 'abort', reason: 'test' },
      actor: 'U1',
    });
    expect(aborted).toMatchObject({ kind: 'answered', after: { status: 'abandoned' } });
    const rows = await readStats(ctx, 'T1');
    expect(rows?.map((r) => [r.playbook, r.counts.started, r.counts.abandoned])).toEqual([
      ['test-leak', 1, 1],
    ]);
  });
});

describe('hand over', () => {
  it("passes the caller's only walkthrough on, and refuses someone who may not", async () => {
    const { context: ctx } = context();
    const started = await startWalkthrough(ctx, { playbook: testPlaybook(), where, owner: 'U1' });
    const refused = await handOver(ctx, {
      where,
      actor: 'U9',
      to: 'U2',
      walkthrough: started.id,
      mayHandOver: async () => false,
    });
    expect(refused).toEqual({ kind: 'not-allowed', owner: 'U1' });
    expect(await handOver(ctx, { where, actor: 'U9', to: 'U2' })).toEqual({ kind: 'none-owned' });
    const handed = await handOver(ctx, { where, actor: 'U1', to: 'U2' });
    expect(handed).toMatchObject({ kind: 'handed', before: { owner: 'U1' }, after: { owner: 'U2' } });
  });

  it('asks which one when the caller owns several, and names an unknown one', async () => {
    const { context: ctx } = context();
    const a = await startWalkthrough(ctx, { playbook: testPlaybook(), where, owner: 'U1' });
    const b = await startWalkthrough(ctx, { playbook: testPlaybook(), where, owner: 'U1' });
    const several = await handOver(ctx, { where, actor: 'U1', to: 'U2' });
    expect(several.kind === 'several-owned' && [...several.ids].sort()).toEqual([a.id, b.id].sort());
    expect(await handOver(ctx, { where, actor: 'U1', to: 'U2', walkthrough: 'nope' })).toEqual({
      kind: 'not-found',
      walkthrough: 'nope',
    });
  });
});

describe('start a walkthrough', () => {
  it('refuses an unknown playbook, one without a procedure, and a second one in a thread', async () => {
    const { context: ctx } = context();
    const { procedure: _none, ...plain } = testPlaybook();
    const withPlain = { ...ctx, playbooks: [...ctx.playbooks, { ...plain, id: 'plain' }] };
    expect(walkablePlaybook(withPlain, 'nope')).toBe('no-playbook');
    expect(walkablePlaybook(withPlain, 'plain')).toBe('no-procedure');
    expect(await startRefusal(ctx, where, '1.0', 'test-leak')).toBeUndefined();
    await startWalkthrough(ctx, { playbook: testPlaybook(), where, owner: 'U1', thread: '1.0' });
    expect(await startRefusal(ctx, where, '1.0', 'test-leak')).toBe('running');
  });
});
