import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/errors.ts';
import { createRecord, transition } from '../../src/walkthrough/machine.ts';
import { WalkthroughRecordSchema } from '../../src/walkthrough/record.ts';
import { viewOf } from '../../src/walkthrough/view.ts';
import { AT, newRecord, parseKv, play, testProcedure } from './helpers.ts';

const started = () => play(newRecord(), [{ type: 'start' }]);

describe('start', () => {
  it('enters the first step at version 1 with an audit entry', () => {
    const record = started();
    expect(record.current).toBe('which-limit');
    expect(record.version).toBe(1);
    expect(record.status).toBe('active');
    expect(record.audit).toEqual([{ at: AT, actor: 'U1', event: 'start', detail: 'started test-leak' }]);
    expect(WalkthroughRecordSchema.parse(record)).toEqual(record);
  });

  it('refuses a second start and any answer before start', () => {
    const again = transition(started(), { type: 'start' }, { actor: 'U1', at: AT });
    expect(again.ok).toBe(false);
    const early = transition(newRecord(), { type: 'done' }, { actor: 'U1', at: AT });
    expect(early.ok ? '' : early.error.message).toMatch(/not started/);
  });
});

describe('question', () => {
  it('follows the chosen answer and records who chose it', () => {
    const record = play(started(), [{ type: 'choose', answer: 'container' }], 'U2');
    expect(record.current).toBe('restart');
    expect(record.path).toEqual([
      {
        step: 'which-limit',
        answer: { kind: 'question', answer: 'container', label: 'The container limit' },
        next: 'restart',
        by: 'U2',
        prefilled: false,
        at: AT,
      },
    ]);
    expect(record.participants).toEqual(['U1', 'U2']);
  });

  it('refuses an unknown answer and an event of another kind, leaving the record as it was', () => {
    const record = started();
    const unknown = transition(record, { type: 'choose', answer: 'disk' }, { actor: 'U1', at: AT });
    expect(unknown.ok ? '' : unknown.error.message).toMatch(/"disk" is not an answer.*heap, container/);
    const wrong = transition(record, { type: 'measure', value: 3 }, { actor: 'U1', at: AT });
    expect(wrong.ok ? '' : wrong.error.code).toBe(ErrorCode.WalkthroughInvalidEvent);
    expect(record.version).toBe(1);
  });

  it('is answered from a diagnosis fact and skipped', () => {
    const record = play(newRecord([{ kind: 'oom.java-heap' }]), [{ type: 'start' }]);
    expect(record.current).toBe('heap-usage');
    expect(record.path[0]).toMatchObject({
      step: 'which-limit',
      by: 'memdoctor',
      prefilled: true,
      because: 'known from the facts: oom.java-heap',
    });
  });
});

describe('measurement', () => {
  const atHeap = () => play(started(), [{ type: 'choose', answer: 'heap' }]);

  it.each([
    [85, 'grow-heap', 'done'],
    [80, 'grow-heap', 'done'],
    [79.5, 'find-leak', 'active'],
  ])('%s percent leads to %s', (value, next, status) => {
    const record = play(atHeap(), [{ type: 'measure', value }]);
    expect(record.current).toBe(next);
    expect(record.status).toBe(status);
  });

  it('refuses a value outside min..max', () => {
    const result = transition(atHeap(), { type: 'measure', value: 150 }, { actor: 'U1', at: AT });
    expect(result.ok ? '' : result.error.message).toMatch(/150% is outside 0% to 100%/);
  });

  it('can be skipped where the step allows it', () => {
    expect(play(atHeap(), [{ type: 'skip' }]).current).toBe('grow-heap');
  });

  it('is answered from a known value and says where it came from', () => {
    const record = play(newRecord([{ kind: 'oom.java-heap' }], { 'heap.percent': '91' }), [
      { type: 'start' },
    ]);
    expect(record.current).toBe('grow-heap');
    expect(record.status).toBe('done');
    expect(record.path[1]?.because).toBe(
      'known from heap.percent; the live data alone nearly fills the heap',
    );
  });
});

describe('instruction', () => {
  const atRestart = () => play(started(), [{ type: 'choose', answer: 'container' }]);
  it.each([
    ['done', 'samples'],
    ['skip', 'samples'],
    ['cant', 'give-up'],
  ] as const)('%s leads to %s', (type, next) => {
    expect(play(atRestart(), [{ type }]).current).toBe(next);
  });
});

describe('paste', () => {
  const atSamples = () => play(started(), [{ type: 'choose', answer: 'container' }, { type: 'done' }]);

  it('branches on the parsed values and keeps the parsed facts', () => {
    const record = play(atSamples(), [{ type: 'paste', text: '# samples\ngrowth=25' }]);
    expect(record.current).toBe('find-leak');
    const answer = record.path.at(-1)?.answer;
    expect(answer).toMatchObject({
      kind: 'paste',
      format: 'test-kv',
      values: { growth: 25 },
      facts: [{ kind: 'samples.growth', values: { percent: 25 } }],
    });
    expect(record.path.at(-1)?.because).toBe('memory grows steadily');
  });

  it('goes to otherwise when no branch holds', () => {
    expect(play(atSamples(), [{ type: 'paste', text: '# samples\ngrowth=2' }]).current).toBe('no-leak');
  });

  it('refuses output that does not parse, saying what to run, and changes nothing', () => {
    const record = atSamples();
    const result = transition(
      record,
      { type: 'paste', text: 'hello' },
      { actor: 'U1', at: AT, parse: parseKv },
    );
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error.message).toMatch(/run sample-memory --every 10s/);
    expect(result.ok ? '' : result.error.code).toBe(ErrorCode.ParseFailed);
  });
});

describe('bisection', () => {
  const atBisect = () =>
    play(started(), [
      { type: 'choose', answer: 'heap' },
      { type: 'measure', value: 40 },
    ]);

  it('halves the candidates each round, shows the round, and ends on the culprit', () => {
    let record = atBisect();
    expect(viewOf(record)?.bisection).toMatchObject({
      round: 1,
      total: 5,
      testWith: ['read', 'parse', 'enrich'],
      holdBack: ['aggregate', 'write'],
    });
    record = play(record, [{ type: 'bisect', leak: true }]);
    expect(viewOf(record)?.bisection).toMatchObject({
      round: 2,
      testWith: ['read', 'parse'],
      holdBack: ['enrich'],
    });
    record = play(record, [{ type: 'bisect', leak: false }]);
    expect(record.status).toBe('done');
    expect(record.path.at(-1)?.answer).toEqual({
      kind: 'bisection',
      found: 'enrich',
      rounds: [
        { tested: ['read', 'parse', 'enrich'], leak: true },
        { tested: ['read', 'parse'], leak: false },
      ],
    });
    expect(viewOf(record)?.title).toBe('Stage enrich leaks');
  });

  it('back undoes one round at a time, then the step before', () => {
    let record = play(atBisect(), [{ type: 'bisect', leak: false }]);
    expect(record.rounds).toHaveLength(1);
    record = play(record, [{ type: 'back' }]);
    expect(record.rounds).toHaveLength(0);
    expect(record.current).toBe('find-leak');
    record = play(record, [{ type: 'back' }]);
    expect(record.current).toBe('heap-usage');
  });
});

describe('back and abort', () => {
  it('back from a conclusion reopens the walkthrough at the last answered step', () => {
    const done = play(started(), [
      { type: 'choose', answer: 'heap' },
      { type: 'measure', value: 95 },
    ]);
    expect(done.status).toBe('done');
    const reopened = play(done, [{ type: 'back' }]);
    expect(reopened).toMatchObject({ status: 'active', current: 'heap-usage' });
    expect(reopened.path.map((e) => e.step)).toEqual(['which-limit']);
  });

  it('back passes over prefilled steps and refuses when nothing was answered by a person', () => {
    const record = play(newRecord([{ kind: 'oom.java-heap' }]), [{ type: 'start' }]);
    const result = transition(record, { type: 'back' }, { actor: 'U1', at: AT });
    expect(result.ok ? '' : result.error.message).toMatch(/nothing to go back to/);
  });

  it('abort abandons the walkthrough; nothing is accepted after it', () => {
    const record = play(started(), [{ type: 'abort', reason: 'wrong job' }]);
    expect(record.status).toBe('abandoned');
    expect(record.audit.at(-1)).toMatchObject({ event: 'abort', detail: 'wrong job' });
    for (const event of [{ type: 'done' }, { type: 'back' }, { type: 'abort' }] as const) {
      const result = transition(record, event, { actor: 'U1', at: AT });
      expect(result.ok ? '' : result.error.message).toMatch(/abandoned/);
    }
  });
});

describe('stale answers', () => {
  it('an answer naming an earlier step is a conflict naming who answered it', () => {
    const record = play(started(), [{ type: 'choose', answer: 'container', step: 'which-limit' }], 'U7');
    const late = transition(
      record,
      { type: 'choose', answer: 'heap', step: 'which-limit' },
      { actor: 'U8', at: AT },
    );
    expect(late.ok ? '' : late.error.code).toBe(ErrorCode.WalkthroughConflict);
    expect(late.ok ? '' : late.error.message).toMatch(/already answered by U7/);
  });
});

describe('templates', () => {
  it('fills step texts from diagnosis values and marks unknown ones', () => {
    const record = play(newRecord([], { job: 'nightly-etl' }), [{ type: 'start' }]);
    expect(viewOf(record)?.text).toBe('Job nightly-etl stopped. Which memory ran out?');
    const next = play(record, [{ type: 'choose', answer: 'container' }]);
    expect(viewOf(next)?.text).toBe('Restart the job with memory sampling every <interval unknown>.');
  });
});

describe('the audit trail', () => {
  const ctx = { actor: 'U1', at: AT, parse: parseKv };
  const bisected = () =>
    play(started(), [
      { type: 'choose', answer: 'heap' },
      { type: 'measure', value: 40 },
      { type: 'bisect', leak: true },
      { type: 'bisect', leak: false },
    ]);

  it('says what each event did, in order, with the step it answered', () => {
    expect(bisected().audit.map((a) => [a.event, a.step, a.detail])).toEqual([
      ['start', undefined, 'started test-leak'],
      ['choose', 'which-limit', 'The Java heap'],
      ['measure', 'heap-usage', '40%'],
      ['bisect', 'find-leak', 'leak with read, parse, enrich'],
      ['bisect', 'find-leak', 'no leak with read, parse; found enrich (found in 2 rounds)'],
    ]);
  });

  // Five candidates: leak with read, parse, enrich; leak with read, parse; no leak with read: parse, in 3 rounds.
  it('cites the last of three rounds, and back undoes only the last', () => {
    const record = play(started(), [
      { type: 'choose', answer: 'heap' },
      { type: 'measure', value: 40 },
      { type: 'bisect', leak: true },
      { type: 'bisect', leak: true },
      { type: 'bisect', leak: false },
    ]);
    expect(record.audit.slice(-3).map((a) => a.detail)).toEqual([
      'leak with read, parse, enrich',
      'leak with read, parse',
      'no leak with read; found parse (found in 3 rounds)',
    ]);
    const back = play(record, [{ type: 'back' }]);
    expect(back.rounds).toEqual([
      { tested: ['read', 'parse', 'enrich'], leak: true },
      { tested: ['read', 'parse'], leak: true },
    ]);
  });

  it('says "no leak" for a round before the last and "leak" for a last round that leaked', () => {
    const record = play(started(), [
      { type: 'choose', answer: 'heap' },
      { type: 'measure', value: 40 },
      { type: 'bisect', leak: false },
      { type: 'bisect', leak: true },
    ]);
    expect(record.audit.slice(-2).map((a) => a.detail)).toEqual([
      'no leak with read, parse, enrich',
      'leak with aggregate; found aggregate (found in 2 rounds)',
    ]);
  });

  it('adds the reason a branch was taken', () => {
    const record = play(started(), [
      { type: 'choose', answer: 'container' },
      { type: 'done' },
      { type: 'paste', text: '# samples\ngrowth=25' },
    ]);
    expect(record.audit.slice(-2).map((a) => a.detail)).toEqual([
      'done',
      'memory grew 25% over the samples (memory grows steadily)',
    ]);
    expect(record.rounds).toEqual([]);
  });

  it('back from a finished bisection reopens it with its last round undone', () => {
    const record = bisected();
    expect(record.rounds).toEqual([]);
    const back = play(record, [{ type: 'back' }]);
    expect(back).toMatchObject({
      status: 'active',
      current: 'find-leak',
      rounds: [{ tested: ['read', 'parse', 'enrich'], leak: true }],
    });
    expect(back.audit.at(-1)).toMatchObject({ event: 'back', detail: 'back to "Find the leaking stage"' });
    const undone = play(back, [{ type: 'back' }]);
    expect([undone.rounds, undone.audit.at(-1)?.detail]).toEqual([[], 'undid the last bisection round']);
  });

  it('abort without a reason says abandoned', () => {
    expect(play(started(), [{ type: 'abort' }]).audit.at(-1)?.detail).toBe('abandoned');
  });

  it('an answer for the current step, or with no step named, is accepted', () => {
    expect(transition(started(), { type: 'choose', answer: 'heap', step: 'which-limit' }, ctx).ok).toBe(true);
    expect(transition(started(), { type: 'choose', answer: 'heap', step: undefined }, ctx).ok).toBe(true);
  });

  it('an answer naming a step not yet reached says so, not who answered', () => {
    const record = play(started(), [{ type: 'choose', answer: 'heap' }]);
    const result = transition(record, { type: 'bisect', leak: true, step: 'find-leak' }, ctx);
    expect(result.ok ? '' : result.error.message).toMatch(
      /that step is not the current step; the walkthrough is now at "heap-usage"/,
    );
  });

  it('refuses start once anything has happened to the record', () => {
    const linked = play(newRecord(), [{ type: 'thread', thread: '1700000000.000100' }]);
    expect([linked.version, linked.current, linked.thread]).toEqual([1, null, '1700000000.000100']);
    expect(transition(linked, { type: 'start' }, ctx).ok).toBe(false);
    expect(transition({ ...newRecord(), current: 'which-limit' }, { type: 'start' }, ctx).ok).toBe(false);
  });
});

describe('createRecord', () => {
  it('starts with no path, rounds or audit, the owner as the only participant', () => {
    const record = createRecord({
      id: 'w1',
      workspace: 'T1',
      conversation: 'C1',
      playbook: { id: 'p', version: 'v1', title: 'P' },
      procedure: testProcedure(),
      owner: 'U9',
      at: AT,
    });
    expect(record).toMatchObject({
      status: 'active',
      current: null,
      path: [],
      rounds: [],
      facts: [],
      values: {},
      participants: ['U9'],
      audit: [],
      version: 0,
    });
    expect('thread' in record).toBe(false);
  });
});
