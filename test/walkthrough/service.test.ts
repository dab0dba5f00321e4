import { describe, expect, it } from 'vitest';
import { walkthroughStart } from '../../src/diagnosis/index.ts';
import { diagnoseText } from '../../src/engine/index.ts';
import { ErrorCode, MemdoctorError } from '../../src/errors.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../src/walkthrough/index.ts';
import { parseKv, TEST_PARSER_REGISTRY, testPlaybook } from './helpers.ts';

const where = { workspace: 'T1', conversation: 'C1' };

function service() {
  let tick = 0;
  return new WalkthroughService({
    store: new MemoryWalkthroughStore(),
    parsers: TEST_PARSER_REGISTRY,
    parse: parseKv,
    now: () => new Date(Date.UTC(2026, 2, 1, 10, tick++)),
  });
}

async function failure(promise: Promise<unknown>): Promise<MemdoctorError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof MemdoctorError) return error;
  throw new Error(`expected a MemdoctorError, got ${String(error)}`);
}

describe('WalkthroughService', () => {
  it('starts, answers, lists and renders a walkthrough', async () => {
    const svc = service();
    const started = await svc.start({
      playbook: testPlaybook(),
      where,
      owner: 'U1',
      thread: '1700000000.000100',
    });
    expect(started.id).toMatch(/^T1-C1-[0-9a-f]{12}$/);
    expect(svc.view(started)).toMatchObject({ step: 'which-limit', kind: 'question', number: 1 });
    expect((await svc.listActive(where)).map((r) => r.id)).toEqual([started.id]);
    expect((await svc.findByThread(where, '1700000000.000100'))?.id).toBe(started.id);

    let record = await svc.apply(started.id, { type: 'choose', answer: 'container' }, 'U2', started.version);
    record = await svc.apply(record.id, { type: 'done' }, 'U1');
    expect(svc.view(record)?.parser).toEqual({
      id: 'test-kv',
      title: 'memory samples',
      howToGet: 'sample-memory --every 10s',
    });
    record = await svc.apply(record.id, { type: 'paste', text: '# samples\ngrowth=3' }, 'U2');
    expect(record.status).toBe('done');
    expect(await svc.listActive(where)).toEqual([]);

    const markdown = await svc.transcript(record.id);
    expect(markdown).toContain('# Walkthrough: Test leak');
    expect(markdown).toContain('1. **Which limit was hit?**: The container limit (U2, 2026-03-01 10:01 UTC)');
    expect(markdown).toContain(
      '3. **Paste the memory samples**: memory grew 3% over the samples (U2, 2026-03-01 10:03 UTC)',
    );
    expect(markdown).toContain('## Conclusion: No leak');
    expect(markdown).toContain('- Give the container more memory.');
    expect(markdown).toContain('| 2026-03-01 10:02:00 | U1 | done | restart | done |');
    expect(markdown).toContain('- Participants: U1, U2');
  });

  it('refuses an answer made against an older version, naming who answered', async () => {
    const svc = service();
    const started = await svc.start({ playbook: testPlaybook(), where, owner: 'U1' });
    await svc.apply(started.id, { type: 'choose', answer: 'heap' }, 'U2', started.version);
    const late = await failure(
      svc.apply(started.id, { type: 'choose', answer: 'container' }, 'U3', started.version),
    );
    expect(late.code).toBe(ErrorCode.WalkthroughConflict);
    expect(late.message).toMatch(/already answered by U2/);
  });

  it('keeps a paste that does not parse out of the record and says what to run', async () => {
    const svc = service();
    const started = await svc.start({ playbook: testPlaybook(), where, owner: 'U1' });
    await svc.apply(started.id, { type: 'choose', answer: 'container' }, 'U1');
    const atPaste = await svc.apply(started.id, { type: 'done' }, 'U1');
    const bad = await failure(svc.apply(started.id, { type: 'paste', text: 'total kB 1234' }, 'U1'));
    expect(bad.code).toBe(ErrorCode.ParseFailed);
    expect(bad.message).toMatch(/run sample-memory/);
    expect(await svc.get(started.id)).toEqual(atPaste);
  });

  it('validates events from outside and explains unknown ids', async () => {
    const svc = service();
    const started = await svc.start({ playbook: testPlaybook(), where, owner: 'U1' });
    const bad = await failure(svc.apply(started.id, { type: 'measure', value: 'lots' } as never, 'U1'));
    expect(bad.code).toBe(ErrorCode.WalkthroughInvalidEvent);
    const missing = await failure(svc.get('T1-C1-000000000000'));
    expect(missing.message).toMatch(/set REDIS_URL to keep them across restarts/);
  });

  it('refuses a playbook without a procedure', async () => {
    const { procedure: _none, ...playbook } = testPlaybook();
    const error = await failure(service().start({ playbook, where, owner: 'U1' }));
    expect(error.message).toMatch(/has no step-by-step procedure yet/);
  });

  it('uses the diagnosis to skip what it already knows', async () => {
    const result = await diagnoseText('paste', 'java.lang.OutOfMemoryError: Java heap space\n', [
      testPlaybook(),
    ]);
    const diagnosis = walkthroughStart(result);
    expect(diagnosis.facts).toContainEqual({ kind: 'oom.java-heap' });
    const record = await service().start({ playbook: testPlaybook(), where, owner: 'U1', diagnosis });
    expect(record.current).toBe('heap-usage');
    expect(record.path[0]).toMatchObject({ prefilled: true, because: 'known from the facts: oom.java-heap' });
  });

  it('keeps the procedure it started with when the playbook changes', async () => {
    const svc = service();
    const playbook = testPlaybook();
    const started = await svc.start({ playbook, where, owner: 'U1' });
    const raw = structuredClone(playbook.procedure) as { steps: { id: string; title: string }[] };
    for (const step of raw.steps) step.title = `${step.title} (v2)`;
    const changed = { ...playbook, version: 'v2', procedure: raw };
    const other = await svc.start({ playbook: changed, where, owner: 'U1' });
    const record = await svc.apply(started.id, { type: 'choose', answer: 'heap' }, 'U1');
    expect(svc.view(record)?.title).toBe('Heap after a full GC');
    expect(record.playbook.version).toBe(playbook.version);
    expect(svc.view(other)?.title).toBe('Which limit was hit? (v2)');
  });
});
