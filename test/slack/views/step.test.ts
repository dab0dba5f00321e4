import { describe, expect, it } from 'vitest';
import {
  answeredStep,
  prefilledNote,
  statusView,
  stepMessage,
  transcriptMessage,
} from '../../../src/slack/views/step.ts';
import { type StepView, UNIT_HINT } from '../../../src/walkthrough/index.ts';
import { stepView } from '../../support/step-view.ts';
import { blockKitProblems } from '../support/block-kit.ts';

const view = stepView;

/** The button values (walkthrough, version, event) in the blocks, parsed, in order. */
function buttonValues(blocks: readonly unknown[]): unknown[] {
  return [...JSON.stringify(blocks).matchAll(/"value":"((?:[^"\\]|\\.)*)"/g)].map((m) =>
    JSON.parse(JSON.parse(`"${m[1]}"`)),
  );
}

const BACK = { w: 'T1-C1-abc123', v: 3, e: { type: 'back' } };
const ABORT = { w: 'T1-C1-abc123', v: 3, e: { type: 'abort' } };

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
    expect(message.text).toBe('Step 2: Open the failed stage');
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('Answered from the diagnosis: Which system: *Spark* (engine.spark)');
    // Slack markup in step text is escaped.
    expect(text).toContain('&amp; look for &lt;outliers&gt;');
    expect(buttonValues(message.blocks)).toEqual([
      { w: 'T1-C1-abc123', v: 3, e: { type: 'done', step: 'check-ui' } },
      { w: 'T1-C1-abc123', v: 3, e: { type: 'skip', step: 'check-ui' } },
      BACK,
      ABORT,
    ]);
  });

  it('render each kind', () => {
    const paste = stepMessage(
      view({
        kind: 'paste',
        input: 'output',
        options: [],
        parser: { id: 'pmap', title: 'pmap -x', howToGet: '`pmap -x <pid>`' },
      }),
    );
    expect(paste).toMatchSnapshot();
    expect(JSON.stringify(paste.blocks)).toContain('`pmap -x &lt;pid&gt;`');
    expect(buttonValues(paste.blocks)).toEqual([BACK, ABORT]);
    const measurement = stepMessage(
      view({ kind: 'measurement', input: 'value', options: [], unit: 'MiB', hint: UNIT_HINT.MiB }),
    );
    // The hint names the unit and the forms the tool prints, as the console does.
    expect(JSON.stringify(measurement.blocks)).toContain(
      'Reply in this thread with a size in MiB (192) or with its unit (1.5 GiB, 192.000mb (201326592 bytes))',
    );
    expect(measurement).toMatchSnapshot();
    expect(buttonValues(measurement.blocks)).toEqual([BACK, ABORT]);
    const bisection = stepMessage(
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
    );
    expect(bisection).toMatchSnapshot();
    const bisectionText = JSON.stringify(bisection.blocks);
    expect(bisectionText).toContain('*Round 2*: run with these 2 of 3 candidates left (of 6):');
    expect(bisectionText).toContain('Does it show: memory keeps growing?');
    expect(buttonValues(bisection.blocks).slice(0, 2)).toEqual([
      { w: 'T1-C1-abc123', v: 3, e: { type: 'bisect', leak: true, step: 'b' } },
      { w: 'T1-C1-abc123', v: 3, e: { type: 'bisect', leak: false, step: 'b' } },
    ]);
    const conclusion = stepMessage(
      view({
        kind: 'conclusion',
        final: true,
        options: [],
        fix: ['Raise the heap'],
        verify: ['No OOM for a week'],
      }),
    );
    expect(conclusion).toMatchSnapshot();
    expect(conclusion.text).toBe('Conclusion: Open the failed stage');
    expect(JSON.stringify(conclusion.blocks)).toMatch(
      /\*Fix\*.*Raise the heap.*\*Check that it worked\*.*No OOM for a week/,
    );
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
    const transcript = transcriptMessage('Heap', '# Walkthrough: Heap\n- a\n- b');
    expect(transcript).toMatchSnapshot();
    expect(JSON.stringify(transcript)).toContain('- a\\n- b');
    const status = statusView([
      {
        title: 'Heap <exhausted>',
        step: 'Open the failed stage',
        owner: 'U1',
        link: 'https://x.slack.com/archives/C1/p1',
      },
    ]);
    expect(status).toMatchSnapshot();
    const statusText = JSON.stringify(status);
    for (const part of [
      'Heap &lt;exhausted&gt;',
      'Open the failed stage',
      '<@U1>',
      'https://x.slack.com/archives/C1/p1',
    ])
      expect(statusText).toContain(part);
  });
});
