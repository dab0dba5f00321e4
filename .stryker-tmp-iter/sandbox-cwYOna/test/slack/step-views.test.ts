// @ts-nocheck
import { describe, expect, it } from 'vitest';
import {
  answeredStep,
  prefilledNote,
  statusView,
  stepMessage,
  transcriptMessage,
} from '../../src/slack/views/step.ts';
import type { StepView } from '../../src/walkthrough/index.ts';
import { blockKitProblems } from './support/block-kit.ts';

function view(over: Partial<StepView>): StepView {
  return {
    walkthrough: 'T1-C1-abc123',
    version: 3,
    status: 'active',
    step: 'check-ui',
    kind: 'instruction',
    number: 2,
    title: 'Open the failed stage',
    text: 'Sort tasks by duration & look for <outliers>.',
    options: [
      { label: 'Done', event: { type: 'done', step: 'check-ui' } },
      { label: 'Skip', event: { type: 'skip', step: 'check-ui' } },
    ],
    canBack: true,
    ...over,
  };
}

describe('step messages', () => {
  it('offer Back only when there is an answer to undo, and Abandon only while active', () => {
    const labels = (v: StepView) =>
      stepMessage(v)
        .blocks.filter((b) => b.type === 'actions')
        .flatMap((b) => ('elements' in b ? b.elements : []))
        .map((e) => ('text' in e && e.text && 'text' in e.text ? e.text.text : ''));
    expect(labels(view({}))).toEqual(['Done', 'Skip', 'Back', 'Abandon']);
    expect(labels(view({ canBack: false }))).toEqual(['Done', 'Skip', 'Abandon']);
    expect(labels(view({ kind: 'conclusion', status: 'done', options: [], fix: [], verify: [] }))).toEqual([
      'Back',
    ]);
    expect(blockKitProblems(stepMessage(view({})).blocks)).toEqual([]);
  });

  it('render an instruction with buttons that carry the walkthrough, version and event', () => {
    const message = stepMessage(
      view({}),
      prefilledNote([{ title: 'Which system', answer: 'Spark', because: 'engine.spark' }]),
    );
    expect(message).toMatchSnapshot();
    expect(blockKitProblems(message.blocks)).toEqual([]);
  });

  it('render each kind', () => {
    expect(
      stepMessage(
        view({
          kind: 'paste',
          options: [],
          parser: { id: 'pmap', title: 'pmap -x', howToGet: '`pmap -x <pid>`' },
        }),
      ),
    ).toMatchSnapshot();
    const measurement = stepMessage(view({ kind: 'measurement', options: [], unit: 'MiB' }));
    // The hint names the unit and the forms the tool prints, as the console does.
    expect(JSON.stringify(measurement.blocks)).toContain(
      'Reply in this thread with a size in MiB (192) or with its unit (1.5 GiB, 192.000mb (201326592 bytes))',
    );
    expect(measurement).toMatchSnapshot();
    expect(
      stepMessage(
        view({
          kind: 'bisection',
          options: [
            { label: 'Yes: memory keeps growing', event: { type: 'bisect', leak: true, step: 'b' } },
            { label: 'No: it behaved', event: { type: 'bisect', leak: false, step: 'b' } },
          ],
          bisection: {
            round: 2,
            remaining: ['a', 'b', 'c'],
            testWith: ['a', 'b'],
            holdBack: ['c'],
            symptom: 'memory keeps growing',
            total: 6,
          },
        }),
      ),
    ).toMatchSnapshot();
    expect(
      stepMessage(
        view({ kind: 'conclusion', options: [], fix: ['Raise the heap'], verify: ['No OOM for a week'] }),
      ),
    ).toMatchSnapshot();
  });

  it('stay within Block Kit limits with 64 long bisection candidates and long labels', () => {
    const candidates = Array.from({ length: 64 }, (_, i) => `transform_step_${i}_${'x'.repeat(80)}`);
    const message = stepMessage(
      view({
        kind: 'bisection',
        title: 'T'.repeat(400),
        text: 'x'.repeat(5000),
        options: [{ label: 'L'.repeat(200), event: { type: 'bisect', leak: true, step: 'b' } }],
        bisection: {
          round: 1,
          remaining: candidates,
          testWith: candidates.slice(0, 32),
          holdBack: candidates.slice(32),
          symptom: 's',
          total: 64,
        },
      }),
    );
    expect(blockKitProblems(message.blocks)).toEqual([]);
    expect(JSON.stringify(message.blocks)).toMatch(/… \d+ more lines/);
  });

  it('once answered, lose their buttons and say who answered what', () => {
    const answered = answeredStep(stepMessage(view({})).blocks, 'done', 'UBOB0001');
    expect(answered.blocks.some((b) => b.type === 'actions')).toBe(false);
    expect(JSON.stringify(answered.blocks.at(-1))).toContain('<@UBOB0001> answered: *done*');
  });

  it('render the transcript and the status list', () => {
    expect(transcriptMessage('Heap', '# Walkthrough: Heap\n- a\n- b')).toMatchSnapshot();
    expect(
      statusView([
        {
          title: 'Heap <exhausted>',
          step: 'Open the failed stage',
          owner: 'U1',
          link: 'https://x.slack.com/archives/C1/p1',
        },
      ]),
    ).toMatchSnapshot();
  });
});
