import { describe, expect, it } from 'vitest';
import { packAlternatives, readAlternatives } from '../../../src/slack/views/alternatives.ts';
import { packJson, readJson } from '../../../src/slack/views/codec.ts';
import { LIMITS } from '../../../src/slack/views/limits.ts';
import { pasteModal, readPasteModalMeta } from '../../../src/slack/views/paste-modal.ts';
import { packStepButton, readStepButton, StepButtonSchema } from '../../../src/slack/views/step-button.ts';
import { viewOf } from '../../../src/walkthrough/index.ts';
import { newRecord, play } from '../../walkthrough/helpers.ts';

describe('the step button value', () => {
  it('round-trips every option of a step with the walkthrough and version, within Slack limits', () => {
    const view = viewOf(play(newRecord(), [{ type: 'start' }]));
    if (!view) throw new Error('no view');
    expect(view.options.length).toBeGreaterThan(0);
    for (const option of view.options) {
      const value = packStepButton(view, option.event);
      expect(value.length).toBeLessThanOrEqual(LIMITS.buttonValue);
      expect(readStepButton(value)).toEqual({ w: view.walkthrough, v: 1, e: option.event });
    }
  });

  it.each([
    ['an unknown event', '{"w":"x","v":1,"e":{"type":"explode"}}'],
    ['an extra field', '{"w":"x","v":1,"e":{"type":"back"},"x":1}'],
    ['a negative version', '{"w":"x","v":-1,"e":{"type":"back"}}'],
    ['not JSON', 'not json'],
    ['nothing', undefined],
  ])('is refused for %s', (_what, raw) => {
    expect(readStepButton(raw)).toBeUndefined();
  });

  it('is the schema the listener reads', () => {
    expect(StepButtonSchema.safeParse({ w: 'x', v: 0, e: { type: 'abort' } }).success).toBe(true);
  });
});

describe('the alternatives value', () => {
  it('reads back what it packed and refuses anything else', () => {
    const d = {
      playbook: 'p',
      title: 'T',
      confidence: 0.456,
      cause: null,
      evidence: [],
      facts: {},
      actions: [],
    };
    expect(readAlternatives(packAlternatives([d]))).toEqual([{ p: 'p', t: 'T', c: 0.46 }]);
    expect(readAlternatives('{"p":1}')).toBeUndefined();
    expect(readAlternatives('[')).toBeUndefined();
  });
});

describe('the paste modal metadata', () => {
  it('reads back the channel the modal was opened in', () => {
    const modal = pasteModal({ channel: 'C1' });
    expect(readPasteModalMeta(modal.private_metadata)).toEqual({ channel: 'C1' });
    expect(readPasteModalMeta('{"channel":""}')).toBeUndefined();
  });
});

describe('packJson', () => {
  it('fails on a payload that does not fit instead of cutting it into unreadable JSON', () => {
    expect(() => packJson({ x: 'y'.repeat(LIMITS.buttonValue) })).toThrow(/does not fit/);
    expect(readJson(StepButtonSchema, packJson({ w: 'x', v: 2, e: { type: 'back' } }))).toEqual({
      w: 'x',
      v: 2,
      e: { type: 'back' },
    });
  });
});
