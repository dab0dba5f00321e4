import { describe, expect, it } from 'vitest';
import type { WalkthroughEvent } from '../../src/walkthrough/events.ts';
import {
  answerFromText,
  optionByWord,
  readTyped,
  type StepView,
  viewOf,
} from '../../src/walkthrough/index.ts';
import { newRecord, play } from './helpers.ts';

/** The view of the test procedure after these events. */
function viewAfter(events: WalkthroughEvent[]): StepView {
  const view = viewOf(play(newRecord(), [{ type: 'start' }, ...events]));
  if (!view) throw new Error('no view');
  return view;
}

const question = () => viewAfter([]);
const measurement = () => viewAfter([{ type: 'choose', answer: 'heap' }]);
const instruction = () => viewAfter([{ type: 'choose', answer: 'container' }]);
const paste = () => viewAfter([{ type: 'choose', answer: 'container' }, { type: 'done' }]);

describe('typed text as an answer (console and Slack)', () => {
  it('reads a measurement in its unit, saying how it read it', () => {
    const view = measurement();
    expect(view.kind).toBe('measurement');
    expect(readTyped(view, '85%')).toEqual({
      event: { type: 'measure', value: 85, step: 'heap-usage' },
      shown: expect.stringContaining('85'),
    });
    expect(readTyped(view, 'lots')).toEqual({ refusal: expect.stringContaining('percentage') });
  });

  it('takes a paste as the output, whatever it says', () => {
    const view = paste();
    expect(view.kind).toBe('paste');
    expect(readTyped(view, '# samples\ngrowth=3')).toEqual({
      event: { type: 'paste', text: '# samples\ngrowth=3', step: 'samples' },
    });
  });

  it('reads nothing from steps answered only by their options', () => {
    expect(readTyped(question(), '1')).toBeUndefined();
    expect(readTyped(instruction(), 'done')).toBeUndefined();
  });

  it('maps words to the options the step offers, and only those', () => {
    expect(optionByWord(instruction(), " Can't ")).toEqual({ event: { type: 'cant', step: 'restart' } });
    expect(optionByWord(instruction(), 'skip')).toEqual({ event: { type: 'skip', step: 'restart' } });
    expect(optionByWord(question(), 'skip')).toBeUndefined();
    expect(optionByWord(measurement(), 'skip')).toEqual({ event: { type: 'skip', step: 'heap-usage' } });
  });

  it('at the terminal: words, then the kind’s reading, then option numbers', () => {
    expect(answerFromText(question(), '2')).toEqual({
      event: { type: 'choose', answer: 'container', step: 'which-limit' },
    });
    expect(answerFromText(question(), '3')).toEqual({ refusal: 'answer with a number from 1 to 2' });
    expect(answerFromText(question(), 'heap')).toEqual({ refusal: 'answer with a number from 1 to 2' });
    expect(answerFromText(measurement(), 'skip')).toEqual({ event: { type: 'skip', step: 'heap-usage' } });
    // A measurement reads "2" as the figure 2, not as the second option.
    expect(answerFromText(measurement(), '2')).toMatchObject({ event: { type: 'measure', value: 2 } });
  });
});
