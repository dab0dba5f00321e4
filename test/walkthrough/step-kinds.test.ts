import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderStep } from '../../src/cli/console/render-step.ts';
import { stepMessage } from '../../src/slack/views/step.ts';
import { STEP_KINDS, type StepView } from '../../src/walkthrough/index.ts';
import { ProcedureSchema } from '../../src/walkthrough/procedure-schema.ts';
import { stepKind } from '../../src/walkthrough/steps/registry.ts';
import { stepView } from '../support/step-view.ts';
import { testProcedure } from './helpers.ts';

const literalOf = (schema: unknown) => ((schema as z.ZodObject).shape.kind as z.ZodLiteral).value;

describe('the step-kind registry', () => {
  it.each(Object.entries(STEP_KINDS))('%s: its schemas carry its name', (name, kind) => {
    expect(literalOf(kind.schema)).toBe(name);
    if (kind.answerSchema) expect(literalOf(kind.answerSchema)).toBe(name);
    expect(stepKind(name)).toBe(kind);
  });

  it('reads every kind of the test procedure through the registry', () => {
    const kinds = new Set(testProcedure().steps.map((s) => s.kind));
    expect([...kinds].sort()).toEqual(Object.keys(STEP_KINDS).sort());
  });

  it('refuses a kind it does not have, naming the field', () => {
    const raw = structuredClone(testProcedure()) as { steps: Record<string, unknown>[] };
    Object.assign(raw.steps[0] ?? {}, { kind: 'riddle' });
    const parsed = ProcedureSchema.safeParse(raw);
    expect(parsed.success).toBe(false);
    expect(z.prettifyError(parsed.error as z.ZodError)).toMatch(/steps\[0\]\.kind/);
  });

  it('names a missing kind when asked for one', () => {
    expect(() => stepKind('riddle')).toThrow(/no step kind "riddle"/);
  });
});

/** A view of a kind neither surface knows: what a new kind gets before anyone writes a renderer. */
const newKind = (over: Partial<StepView>) =>
  stepView({
    step: 'gauge',
    kind: 'gauge',
    number: 3,
    title: 'Read the gauge',
    text: 'Look at the dial.',
    options: [],
    canBack: false,
    ...over,
  });

describe('a step kind the surfaces do not know', () => {
  it('is shown by how it is answered, in the console and in Slack', () => {
    const value = newKind({ input: 'value', hint: 'a pressure in bar (2.5)' });
    expect(value.kind).toBe('gauge');
    expect(renderStep(value)).toBe(
      '\n-- Step 3: Read the gauge\nLook at the dial.\nType a pressure in bar (2.5).\n',
    );
    expect(JSON.stringify(stepMessage(value).blocks)).toContain(
      ':straight_ruler: Reply in this thread with a pressure in bar (2.5).',
    );
    const choice = newKind({
      options: [
        { label: 'High', event: { type: 'choose', answer: 'high', step: 'gauge' } },
        { label: 'Low', event: { type: 'choose', answer: 'low', step: 'gauge' } },
      ],
    });
    expect(renderStep(choice)).toContain('  1. High\n  2. Low\nAnswer with a number.');
    expect(JSON.stringify(stepMessage(choice).blocks)).toContain('"text":"High"');
  });
});
