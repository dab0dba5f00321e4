import { describe, expect, it } from 'vitest';
import { type Fact, FactBook } from '../../src/engine/facts.ts';
import { confidenceOf, factsFor, matchPlaybook, rankPlaybooks } from '../../src/engine/match.ts';
import { testPlaybook } from './playbook-fixture.ts';

function bookOf(...facts: Array<[string, number, Fact['values']?]>): FactBook {
  const book = new FactBook();
  for (const [kind, line, values] of facts)
    book.add({ kind, line, text: `line ${line}`, ...(values ? { values } : {}) });
  return book;
}

const signal = (weight: number) => ({ fact: 'x', weight, facts: [] });

describe('confidenceOf', () => {
  it.each([
    { weights: [], confidence: 0 },
    { weights: [0.5], confidence: 0.5 },
    // Noisy-OR: 1 - (1 - 0.5)(1 - 0.5)
    { weights: [0.5, 0.5], confidence: 0.75 },
    { weights: [0.6, 0.3, 0.2], confidence: 0.78 },
    // A negative signal scales the belief down: 0.75 * (1 - 0.4)
    { weights: [0.5, 0.5, -0.4], confidence: 0.45 },
    { weights: [-0.5], confidence: 0 },
    // Never certain.
    { weights: [1], confidence: 0.99 },
    { weights: [0.9, 0.9, 0.9], confidence: 0.99 },
  ])('$weights -> $confidence', ({ weights, confidence }) => {
    expect(confidenceOf(weights.map(signal))).toBe(confidence);
  });

  // Two decimals, rounded to nearest: 1 - 0.7 x 0.9 x 0.95 = 0.4015 -> 0.4; 1 - 0.5 x 0.67 = 0.665 -> 0.67
  // (a floor would give 0.66); a negative weight of exactly -1 rules the playbook out entirely.
  it.each([
    { weights: [0.3, 0.1, 0.05], confidence: 0.4 },
    { weights: [0.5, 0.33], confidence: 0.67 },
    { weights: [0.8, -1], confidence: 0 },
    { weights: [0.985], confidence: 0.99 },
    { weights: [0.984], confidence: 0.98 },
  ])('rounds $weights to $confidence', ({ weights, confidence }) => {
    expect(confidenceOf(weights.map(signal))).toBe(confidence);
  });

  it('does not depend on the order of the signals', () => {
    const weights = [0.3, -0.2, 0.45, 0.1, -0.1];
    expect(confidenceOf(weights.map(signal))).toBe(confidenceOf([...weights].reverse().map(signal)));
  });

  it('only grows when a positive signal is added', () => {
    const base = [0.3, 0.2].map(signal);
    expect(confidenceOf([...base, signal(0.1)])).toBeGreaterThan(confidenceOf(base));
  });
});

describe('factsFor', () => {
  const book = bookOf(
    ['container.killed-memory', 4, { resource: 'physical', manager: 'yarn' }],
    ['container.killed-memory', 9, { resource: 'virtual', manager: 'yarn' }],
    ['exit.137', 2],
  );

  it('matches a kind, a prefix, and where conditions on values', () => {
    expect(factsFor(book, 'exit.137').map((f) => f.line)).toEqual([2]);
    expect(factsFor(book, 'container.*').map((f) => f.line)).toEqual([4, 9]);
    expect(
      factsFor(book, { fact: 'container.killed-memory', where: { resource: 'virtual' } }).map((f) => f.line),
    ).toEqual([9]);
    expect(
      factsFor(book, { fact: 'container.killed-memory', where: { resource: 'virtual', manager: 'k8s' } }),
    ).toEqual([]);
    // A fact without values meets no `where` condition.
    expect(factsFor(book, { fact: 'exit.137', where: { code: 137 } })).toEqual([]);
  });
});

describe('matchPlaybook', () => {
  const playbook = testPlaybook('heap', {
    requires: [{ label: 'an OOM', any: ['oom.java-heap', 'oom.gc-overhead'] }],
    excludes: ['engine.flink'],
    signals: [
      { fact: 'oom.java-heap', weight: 0.6 },
      { fact: 'engine.spark', weight: 0.5 },
      { fact: 'platform.kubernetes', weight: -0.5 },
    ],
    min_confidence: 0.5,
  });

  it('applies when a required fact is present, citing what it matched', () => {
    const match = matchPlaybook(bookOf(['oom.java-heap', 3], ['engine.spark', 1]), playbook);
    expect(match?.confidence).toBe(0.8);
    expect(match?.signals.map((s) => [s.fact, s.facts.map((f) => f.line)])).toEqual([
      ['oom.java-heap', [3]],
      ['engine.spark', [1]],
    ]);
    expect(match?.required.map((f) => f.line)).toEqual([3]);
  });

  it('does not apply without its required facts, however strong the signals', () => {
    expect(matchPlaybook(bookOf(['engine.spark', 1], ['oom.metaspace', 2]), playbook)).toBeUndefined();
  });

  it('is ruled out by an excluded fact', () => {
    expect(matchPlaybook(bookOf(['oom.java-heap', 3], ['engine.flink', 1]), playbook)).toBeUndefined();
  });

  it('is not reported below min_confidence', () => {
    // Required via gc-overhead, but only the Spark signal (0.5) scaled by K8s (-0.5) -> 0.25.
    expect(
      matchPlaybook(
        bookOf(['oom.gc-overhead', 3], ['engine.spark', 1], ['platform.kubernetes', 2]),
        playbook,
      ),
    ).toBeUndefined();
  });

  // Boundary: a confidence equal to min_confidence is reported (the threshold is inclusive).
  it('is reported at exactly min_confidence, and not a hundredth below', () => {
    const at = testPlaybook('at', {
      requires: [{ label: 'oom', any: ['oom.java-heap'] }],
      signals: [
        { fact: 'oom.java-heap', weight: 0.5 },
        { fact: 'engine.spark', weight: 0.02 },
      ],
      min_confidence: 0.5,
    });
    expect(matchPlaybook(bookOf(['oom.java-heap', 1]), at)?.confidence).toBe(0.5);
    // 1 - 0.5 x 0.98 = 0.51
    expect(matchPlaybook(bookOf(['oom.java-heap', 1], ['engine.spark', 2]), at)?.confidence).toBe(0.51);
    const above = testPlaybook('above', { ...at.match, min_confidence: 0.51 });
    expect(matchPlaybook(bookOf(['oom.java-heap', 1]), above)).toBeUndefined();
  });

  it('cites the facts of every requires group, and each signal only with its facts', () => {
    const two = testPlaybook('two-groups', {
      requires: [
        { label: 'kill', any: ['container.killed-memory', 'exit.137'] },
        { label: 'spark', any: ['engine.spark'] },
      ],
      signals: [
        { fact: 'container.killed-memory', weight: 0.5, where: { resource: 'physical' } },
        { fact: 'exit.137', weight: 0.3 },
      ],
    });
    const book = bookOf(
      ['container.killed-memory', 4, { resource: 'virtual' }],
      ['exit.137', 5],
      ['engine.spark', 1],
    );
    const match = matchPlaybook(book, two);
    expect(match?.required.map((f) => [f.kind, f.line])).toEqual([
      ['container.killed-memory', 4],
      ['exit.137', 5],
      ['engine.spark', 1],
    ]);
    // The physical-kill signal does not meet its `where`: only exit.137 counts.
    expect(match?.signals.map((s) => s.fact)).toEqual(['exit.137']);
    expect(match?.confidence).toBe(0.3);
  });

  it('needs every requires group', () => {
    const two = testPlaybook('two', {
      requires: [
        { label: 'a kill', any: ['container.killed-memory'] },
        { label: 'spark', any: ['engine.spark'] },
      ],
      signals: [{ fact: 'container.killed-memory', weight: 0.9 }],
    });
    expect(matchPlaybook(bookOf(['container.killed-memory', 1]), two)).toBeUndefined();
    expect(matchPlaybook(bookOf(['container.killed-memory', 1], ['engine.spark', 2]), two)?.confidence).toBe(
      0.9,
    );
  });
});

describe('rankPlaybooks', () => {
  const oom = { requires: [{ label: 'oom', any: ['oom.*'] }] };
  const book = bookOf(['oom.java-heap', 1], ['engine.spark', 2]);

  it('ranks by confidence, best first', () => {
    const ranked = rankPlaybooks(book, [
      testPlaybook('weak', { ...oom, signals: [{ fact: 'oom.java-heap', weight: 0.4 }] }),
      testPlaybook('strong', { ...oom, signals: [{ fact: 'oom.java-heap', weight: 0.9 }] }),
    ]);
    expect(ranked.map((m) => m.playbook.id)).toEqual(['strong', 'weak']);
  });

  it('breaks a confidence tie by the number of requires groups, then by id', () => {
    const signals = [{ fact: 'oom.java-heap', weight: 0.6 }];
    const specific = {
      requires: [...oom.requires, { label: 'spark', any: ['engine.spark'] }],
      signals,
    };
    const playbooks = [
      testPlaybook('b-general', { ...oom, signals }),
      testPlaybook('z-specific', specific),
      testPlaybook('a-general', { ...oom, signals }),
    ];
    const expected = ['z-specific', 'a-general', 'b-general'];
    expect(rankPlaybooks(book, playbooks).map((m) => m.playbook.id)).toEqual(expected);
    expect(rankPlaybooks(book, [...playbooks].reverse()).map((m) => m.playbook.id)).toEqual(expected);
  });

  it('is empty when nothing applies', () => {
    expect(
      rankPlaybooks(bookOf(['engine.spark', 1]), [
        testPlaybook('p', { ...oom, signals: [{ fact: 'oom.*', weight: 0.5 }] }),
      ]),
    ).toEqual([]);
  });
});
