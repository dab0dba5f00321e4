import { describe, expect, it } from 'vitest';
import type { Diagnosis, InputReport } from '../../../src/engine/index.ts';
import { loadPlaybooks } from '../../../src/playbooks/load.ts';
import { packAlternatives } from '../../../src/slack/views/alternatives.ts';
import { fitLines } from '../../../src/slack/views/blocks.ts';
import { alternativesView, diagnosisView, markedNotMemory } from '../../../src/slack/views/diagnosis.ts';
import { readExplainRef } from '../../../src/slack/views/explain-ref.ts';
import { helpView, listView } from '../../../src/slack/views/help.ts';
import { pasteModal } from '../../../src/slack/views/paste-modal.ts';
import { packWalkSeed, readWalkSeed } from '../../../src/slack/views/walk-seed.ts';
import { blockKitProblems } from '../support/block-kit.ts';
import { PLAYBOOKS_DIR } from '../support/harness.ts';

const playbooks = loadPlaybooks(PLAYBOOKS_DIR);

/** The action ids of every button in the blocks, in order. */
function actionIds(blocks: readonly unknown[]): string[] {
  return [...JSON.stringify(blocks).matchAll(/"action_id":"([^"]+)"/g)].map((m) => m[1] ?? '');
}

function diagnosis(over: Partial<Diagnosis> = {}): Diagnosis {
  return {
    playbook: 'test-heap-oom',
    title: 'Test executor heap exhausted',
    confidence: 0.76,
    cause: 'big-partition',
    evidence: [
      { line: 2, text: 'ERROR Executor: Exception in task 3.0 <stage 7>' },
      { line: 3, text: 'java.lang.OutOfMemoryError: Java heap space' },
    ],
    facts: {},
    actions: [
      'Raise the partition count before the wide stage.',
      'Give executors more memory or fewer cores each.',
    ],
    ...over,
  };
}

function report(diagnoses: Diagnosis[]): InputReport {
  return { source: 'paste', input: { bytes: 200, lines: 4 }, diagnoses };
}

describe('diagnosisView', () => {
  it('renders the top diagnosis with its buttons', () => {
    const other = diagnosis({
      playbook: 'test-gc-pressure',
      title: 'Test garbage collector thrashing',
      confidence: 0.4,
      cause: null,
    });
    const view = diagnosisView(report([diagnosis(), other]), playbooks, 'UALICE01');
    expect(view).toMatchSnapshot();
    expect(blockKitProblems(view.blocks)).toEqual([]);
    // What the snapshot must keep showing: title, figures, evidence, cause, actions and both buttons.
    expect(view.text).toBe('Test executor heap exhausted (confidence 76%)');
    const text = JSON.stringify(view.blocks);
    for (const part of [
      'Confidence *76%*',
      '`test-heap-oom`',
      '4 lines read',
      'asked by <@UALICE01>',
      'java.lang.OutOfMemoryError: Java heap space',
      'Likely cause: One partition too large for the heap',
      'Raise the partition count before the wide stage.',
    ])
      expect(text).toContain(part);
    expect(actionIds(view.blocks)).toEqual([
      'memdoctor.diagnosis.alternatives',
      'memdoctor.diagnosis.not_memory',
    ]);
  });

  it('offers no alternatives button when the engine had one candidate', () => {
    const view = diagnosisView(report([diagnosis()]), playbooks);
    expect(JSON.stringify(view.blocks)).not.toContain('Show alternatives');
  });

  it('offers Explain only when a model is configured, carrying the diagnosis within the value limit', () => {
    expect(JSON.stringify(diagnosisView(report([diagnosis()]), playbooks).blocks)).not.toContain('Explain');
    const long = diagnosis({
      evidence: Array.from({ length: 8 }, (_, i) => ({ line: i + 1, text: 'x'.repeat(900) })),
    });
    const view = diagnosisView(report([long]), playbooks, undefined, undefined, { explain: true });
    expect(blockKitProblems(view.blocks)).toEqual([]);
    const actionsBlock = view.blocks.find((b) => b.type === 'actions');
    const explain =
      actionsBlock && 'elements' in actionsBlock
        ? actionsBlock.elements.find((e) => 'action_id' in e && e.action_id === 'memdoctor.diagnosis.explain')
        : undefined;
    const value = explain && 'value' in explain ? explain.value : undefined;
    expect(value?.length).toBeLessThanOrEqual(2000);
    const back = readExplainRef(value);
    expect(back?.playbook).toBe(long.playbook);
    expect(back?.evidence.length).toBeGreaterThan(0);
    expect(back?.evidence[0]?.line).toBe(1);
  });

  it('says what it looked for when nothing matched', () => {
    const view = diagnosisView(report([]), playbooks);
    expect(view).toMatchSnapshot();
    expect(view.text).toBe('memdoctor found no known memory problem in this input.');
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('Looked for: `test-gc-pressure`, `test-heap-oom`.');
    expect(text).toContain('Read 4 lines from paste.');
    expect(actionIds(view.blocks)).toEqual([]);
  });

  it('cuts long evidence with "N more lines" and stays inside Block Kit limits', () => {
    const evidence = Array.from({ length: 400 }, (_, i) => ({ line: i + 1, text: `${'x'.repeat(90)} ${i}` }));
    const long = diagnosis({
      evidence,
      title: 'T'.repeat(300),
      actions: Array.from({ length: 60 }, () => 'a'.repeat(200)),
    });
    const view = diagnosisView(report([long]), playbooks);
    expect(blockKitProblems(view.blocks)).toEqual([]);
    const text = JSON.stringify(view.blocks);
    expect(text).toMatch(/… \d+ more lines/);
  });

  it('escapes Slack markup in log text', () => {
    const view = diagnosisView(report([diagnosis()]), playbooks);
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('&lt;stage 7&gt;');
    expect(text).not.toContain('<stage 7>');
  });
});

describe('fitLines', () => {
  it('keeps everything that fits', () => {
    expect(fitLines(['a', 'b'], 100)).toBe('a\nb');
  });
  it('counts what it leaves out', () => {
    const out = fitLines(
      Array.from({ length: 10 }, () => 'y'.repeat(20)),
      100,
    );
    expect(out.length).toBeLessThanOrEqual(100);
    expect(out).toMatch(/… \d+ more lines$/);
    const kept = out.split('\n').length - 1;
    expect(out).toContain(`… ${10 - kept} more lines`);
  });
});

describe('other views', () => {
  it('packs alternatives into a button value under 2000 characters', () => {
    const many = Array.from({ length: 100 }, (_, i) =>
      diagnosis({ playbook: `p-${i}`, title: 'Z'.repeat(100) }),
    );
    const packed = packAlternatives(many);
    expect(packed.length).toBeLessThanOrEqual(2000);
    expect(JSON.parse(packed).length).toBeGreaterThan(5);
  });

  it('renders alternatives, help, list and the modal', () => {
    const alternatives = alternativesView(
      [{ p: 'test-gc-pressure', t: 'Test garbage collector thrashing', c: 0.4 }],
      playbooks,
    );
    expect(alternatives).toMatchSnapshot();
    expect(alternatives.text).toBe('Other possibilities');
    expect(JSON.stringify(alternatives.blocks)).toMatch(/Test garbage collector thrashing.*40%/);
    const help = helpView();
    expect(help).toMatchSnapshot();
    expect(help.text).toBe('memdoctor help');
    expect(JSON.stringify(help.blocks)).toContain('Upload a log (plain or .gz)');
    const list = listView(playbooks);
    expect(list).toMatchSnapshot();
    expect(list.text).toBe(`memdoctor knows ${playbooks.length} problems`);
    for (const p of playbooks) expect(JSON.stringify(list.blocks)).toContain(p.title);
    const modal = pasteModal({ channel: 'C1' }, 'glue');
    expect(modal).toMatchSnapshot();
    const modalText = JSON.stringify(modal);
    expect(modalText).toContain('Error, stack trace or log excerpt');
    for (const engine of ['auto', 'glue', 'spark', 'flink', 'beam'])
      expect(modalText).toContain(`"value":"${engine}"`);
    // The engine the command named is preselected.
    expect(modalText).toMatch(/"initial_option":\{[^}]*"text":"glue"/);
  });

  it('drops the buttons of a dismissed diagnosis and says who dismissed it', () => {
    const view = diagnosisView(report([diagnosis()]), playbooks);
    const after = markedNotMemory(view.blocks, 'UBOB0001');
    expect(after.blocks.some((b) => b.type === 'actions')).toBe(false);
    expect(JSON.stringify(after.blocks.at(-1))).toContain('<@UBOB0001>');
  });
});

describe('the walkthrough seed on the Start button', () => {
  it('drops values, then fact details, then facts until it fits 2000 characters', () => {
    const facts = Array.from({ length: 80 }, (_, i) => ({
      kind: `oom.kind-${i}`,
      values: { detail: 'd'.repeat(40) },
    }));
    const values = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`config.key-${i}`, 'v'.repeat(30)]),
    );
    const packed = packWalkSeed('spark-heap-oom', { facts, values });
    expect(packed.length).toBeLessThanOrEqual(2000);
    const seed = readWalkSeed(packed);
    expect(seed?.p).toBe('spark-heap-oom');
    expect(seed?.f.length).toBeGreaterThan(10);
  });

  it('keeps everything when it fits', () => {
    const known = { facts: [{ kind: 'oom.java-heap' }], values: { 'config.spark.executor.memory': '4g' } };
    expect(readWalkSeed(packWalkSeed('p', known))).toEqual({ p: 'p', f: known.facts, v: known.values });
  });

  it('reads a bare playbook id, and refuses junk', () => {
    expect(readWalkSeed('glue-heap-oom')).toEqual({ p: 'glue-heap-oom', f: [], v: {} });
    expect(readWalkSeed('{not json')).toBeUndefined();
    expect(readWalkSeed('Bad Id')).toBeUndefined();
  });
});
