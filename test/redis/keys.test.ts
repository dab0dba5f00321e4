import { describe, expect, it } from 'vitest';
import { hashTag, RedisKeys } from '../../src/redis/keys.ts';
import { loadScripts } from '../../src/redis/scripts.ts';

const keys = new RedisKeys('p');
const where = { workspace: 'T1', conversation: 'C2' };

/** One example per key builder; a new builder must be added here, so its tag is checked. */
const EXAMPLES: Readonly<Record<string, () => string>> = {
  walkthrough: () => keys.walkthrough(where, 'T1-C2-abc123'),
  walkthroughAudit: () => keys.walkthroughAudit(where, 'T1-C2-abc123'),
  activeWalkthroughs: () => keys.activeWalkthroughs(where),
  threadWalkthrough: () => keys.threadWalkthrough(where, '1.2'),
  case: () => keys.case({ ...where, thread: '1700000000.000100' }),
  caseAnswerClaim: () => keys.caseAnswerClaim({ ...where, thread: '1700000000.000100' }),
  modelAnswer: () => keys.modelAnswer('ab'.repeat(32)),
  modelRequests: () => keys.modelRequests('T1', 492_000),
  claim: () => keys.claim('event:Ev123'),
  outcomeCounts: () => keys.outcomeCounts('T1'),
  outcomeAnswers: () => keys.outcomeAnswers('T1'),
  outcomeNotes: () => keys.outcomeNotes('T1'),
  outcomeActivity: () => keys.outcomeActivity('T1'),
  fetchesRunning: () => keys.fetchesRunning(),
  fetchesRunningBy: () => keys.fetchesRunningBy('T1:U2'),
  fetchesStartedBy: () => keys.fetchesStartedBy('T1:U2'),
  alertStream: () => keys.alertStream(),
  alertRetries: () => keys.alertRetries(),
  alertDeadLetters: () => keys.alertDeadLetters(),
  alertDelivery: () => keys.alertDelivery('sns:{7a2f}'),
  incident: () => keys.incident('am:{d4b1}%'),
  incidentClaim: () => keys.incidentClaim('am:d4b1'),
};

const builders = Object.getOwnPropertyNames(RedisKeys.prototype).filter(
  (name) => name !== 'constructor' && !['tagged', 'conversation', 'alerts'].includes(name),
);

describe('RedisKeys', () => {
  it('has an example for every key it builds', () => {
    expect(builders.sort()).toEqual(Object.keys(EXAMPLES).sort());
  });

  it.each(Object.entries(EXAMPLES))('%s starts with the prefix and carries one hash tag', (_name, build) => {
    const key = build();
    expect(key.startsWith('p:{')).toBe(true);
    expect(hashTag(key)).toBeTruthy();
    expect(key.match(/[{}]/g)).toEqual(['{', '}']);
  });

  it('puts the keys the walkthrough scripts touch together in one slot', () => {
    const tags = [
      keys.walkthrough(where, 'x'),
      keys.activeWalkthroughs(where),
      keys.threadWalkthrough(where, '1.2'),
      keys.threadWalkthrough(where, undefined),
      keys.walkthroughAudit(where, 'x'),
      keys.case({ ...where, thread: '1.2' }),
      keys.caseAnswerClaim({ ...where, thread: '1.2' }),
    ].map(hashTag);
    expect(tags).toEqual(['T1:C2', 'T1:C2', 'T1:C2', 'T1:C2', 'T1:C2', 'T1:C2', 'T1:C2']);
    expect(hashTag(keys.walkthrough({ workspace: 'T1', conversation: 'C3' }, 'x'))).toBe('T1:C3');
  });

  it('keeps a workspace’s model request windows together and apart from other workspaces', () => {
    expect(hashTag(keys.modelRequests('T1', 1))).toBe(hashTag(keys.modelRequests('T1', 2)));
    expect(hashTag(keys.modelRequests('T1', 1))).not.toBe(hashTag(keys.modelRequests('T2', 1)));
  });

  it('puts a workspace’s outcome keys (the feedback script’s two) in one slot', () => {
    const tags = [keys.outcomeCounts('T1'), keys.outcomeAnswers('T1'), keys.outcomeNotes('T1')].map(hashTag);
    expect(tags).toEqual(['outcomes:T1', 'outcomes:T1', 'outcomes:T1']);
    expect(hashTag(keys.outcomeCounts('T2'))).toBe('outcomes:T2');
  });

  it('puts every fetch cap key in one slot: takeFetchSlot-3.lua reads a person’s and everyone’s together', () => {
    const tags = [
      keys.fetchesRunning(),
      keys.fetchesRunningBy('T1:U2'),
      keys.fetchesStartedBy('T9:U{x}'),
    ].map(hashTag);
    expect(tags).toEqual(['fetches', 'fetches', 'fetches']);
  });

  it('puts every key of the alert intake in one slot (the accept script touches three)', () => {
    const tags = [
      keys.alertStream(),
      keys.alertRetries(),
      keys.alertDeadLetters(),
      keys.alertDelivery('d'),
      keys.incident('i'),
      keys.incidentClaim('i'),
    ].map(hashTag);
    expect(new Set(tags)).toEqual(new Set(['alerts']));
  });

  it('keeps ids from payloads whole, their braces escaped, so two ids never share a key', () => {
    expect(keys.incident('a{b}%')).toBe('p:{alerts}:incident:a%7Bb%7D%25');
    expect(keys.incident('a{b}')).not.toBe(keys.incident('a_b_'));
    expect(keys.incidentClaim('x')).toBe('p:{alerts}:incident:x:claim');
  });

  it('never lets a brace in a part end the tag early', () => {
    const key = keys.claim('start:C1:{evil}');
    expect(key.match(/[{}]/g)).toEqual(['{', '}']);
    expect(hashTag(key)).toBe('slack:start:C1:_evil_');
  });
});

describe('hashTag', () => {
  it.each([
    ['a:{b}:c', 'b'],
    ['a:{}:c', undefined],
    ['a:b', undefined],
    ['a:{b:{c}}', 'b:{c'],
  ])('%s -> %s (as Redis Cluster reads it)', (key, tag) => {
    expect(hashTag(key)).toBe(tag);
  });
});

describe('the Lua scripts', () => {
  it('are every script memdoctor runs, each with a header naming its keys', () => {
    const scripts = loadScripts();
    expect(scripts.map((s) => s.name)).toEqual([
      'acceptAlert',
      'addCaseInput',
      'countModelRequest',
      'createWalkthrough',
      'deadLetterAlert',
      'dueAlerts',
      'finishAlert',
      'postponeAlert',
      'recordFeedback',
      'releaseClaim',
      'releaseFetchSlot',
      'renewFetchSlot',
      'replaceWalkthrough',
      'takeFetchSlot',
    ]);
    for (const script of scripts)
      for (let i = 1; i <= script.numberOfKeys; i++) expect(script.lua).toContain(`KEYS[${i}]`);
  });
});
