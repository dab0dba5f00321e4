// @ts-nocheck
import { PARSERS } from '../engine/parsers/registry.ts';
import type { Parser } from '../engine/parsers/types.ts';
import { fill, placeholders } from '../engine/templates.ts';
import { type BisectionState, bisectionState, candidatesOf } from './bisection.ts';
import type { WalkthroughEvent } from './events.ts';
import { knownValues } from './known.ts';
import type { MeasurementUnit } from './measure.ts';
import { stepById } from './prefill.ts';
import type { Step } from './procedure-schema.ts';
import type { WalkthroughRecord } from './record.ts';

/** A button or numbered choice: what it says and the event it sends. */
export interface StepOption {
  label: string;
  event: WalkthroughEvent;
}

/**
 * The current step as a chat message or console prompt shows it: texts with `{{placeholders}}`
 * filled, the choices as events, and what each kind needs. Pure; Slack and the console both use it.
 */
export interface StepView {
  walkthrough: string;
  version: number;
  status: WalkthroughRecord['status'];
  step: string;
  kind: Step['kind'];
  /** 1-based count of steps shown so far, including this one. */
  number: number;
  title: string;
  text: string;
  /** Choices for instruction, question and bisection steps (and skip, where allowed). */
  options: StepOption[];
  unit?: MeasurementUnit;
  min?: number;
  max?: number;
  parser?: { id: string; title: string; howToGet: string };
  bisection?: BisectionState & { symptom: string; total: number };
  fix?: string[];
  verify?: string[];
  canBack: boolean;
}

/**
 * Fills `{{name}}` from what is known; a name with no value yet shows as `<name unknown>` so the
 * sentence still reads and the gap is visible.
 */
export function fillKnown(template: string, values: Readonly<Record<string, string>>): string {
  const complete: Record<string, string> = { ...values };
  for (const name of placeholders(template)) complete[name] ??= `<${name} unknown>`;
  return fill(template, complete) ?? template;
}

function optionsOf(step: Step, bisect: StepView['bisection']): StepOption[] {
  const s = { step: step.id };
  switch (step.kind) {
    case 'instruction':
      return [
        { label: 'Done', event: { type: 'done', ...s } },
        { label: 'Skip', event: { type: 'skip', ...s } },
        ...(step.on_cant ? [{ label: "Can't do this", event: { type: 'cant', ...s } } as StepOption] : []),
      ];
    case 'question':
      return step.answers.map((a) => ({ label: a.label, event: { type: 'choose', answer: a.id, ...s } }));
    case 'bisection':
      return [
        {
          label: `Yes: ${bisect?.symptom ?? 'the symptom showed'}`,
          event: { type: 'bisect', leak: true, ...s },
        },
        { label: 'No: it behaved', event: { type: 'bisect', leak: false, ...s } },
      ];
    case 'measurement':
    case 'paste':
      return step.on_skip ? [{ label: 'Skip: I cannot get this', event: { type: 'skip', ...s } }] : [];
    case 'conclusion':
      return [];
  }
}

function kindDetails(
  record: WalkthroughRecord,
  step: Step,
  values: Record<string, string>,
  parsers: Readonly<Record<string, Parser>>,
) {
  if (step.kind === 'measurement') return { unit: step.unit, min: step.min, max: step.max };
  if (step.kind === 'paste') {
    const parser = parsers[step.parser];
    return {
      parser: {
        id: step.parser,
        title: parser?.title ?? step.parser,
        howToGet: parser?.howToGet ?? 'the command named above',
      },
    };
  }
  if (step.kind === 'bisection') {
    const state = bisectionState(step, record);
    const total = candidatesOf(step, record).length;
    return { bisection: { ...state, symptom: fillKnown(step.symptom, values), total } };
  }
  if (step.kind === 'conclusion')
    return {
      fix: step.fix.map((t) => fillKnown(t, values)),
      verify: step.verify.map((t) => fillKnown(t, values)),
    };
  return {};
}

/** The view of the walkthrough's current step; undefined before it has started. */
export function viewOf(
  record: WalkthroughRecord,
  parsers: Readonly<Record<string, Parser>> = PARSERS,
): StepView | undefined {
  if (record.current === null) return undefined;
  const step = stepById(record, record.current);
  const values = knownValues(record);
  const details = kindDetails(record, step, values, parsers);
  return {
    walkthrough: record.id,
    version: record.version,
    status: record.status,
    step: step.id,
    kind: step.kind,
    number: record.path.length + 1,
    title: fillKnown(step.title, values),
    text: fillKnown(step.text, values),
    options: record.status === 'active' ? optionsOf(step, details.bisection) : [],
    ...details,
    canBack:
      record.status !== 'abandoned' && (record.rounds.length > 0 || record.path.some((e) => !e.prefilled)),
  };
}
