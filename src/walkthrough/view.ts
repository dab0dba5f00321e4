import { PARSERS } from '../engine/parsers/registry.ts';
import type { Parser } from '../engine/parsers/types.ts';
import { stepContext } from './known.ts';
import { stepById } from './prefill.ts';
import type { WalkthroughRecord } from './record.ts';
import { stepKind } from './steps/registry.ts';
import { fillKnown } from './steps/step-rules.ts';
import type { StepView } from './steps/step-view.ts';

export { fillKnown } from './steps/step-rules.ts';
export type { StepOption, StepView } from './steps/step-view.ts';

/** The view of the walkthrough's current step; undefined before it has started. */
export function viewOf(
  record: WalkthroughRecord,
  parsers: Readonly<Record<string, Parser>> = PARSERS,
): StepView | undefined {
  if (record.current === null) return undefined;
  const step = stepById(record, record.current);
  const kind = stepKind(step.kind);
  const ctx = stepContext(record);
  return {
    walkthrough: record.id,
    version: record.version,
    status: record.status,
    step: step.id,
    kind: step.kind,
    number: record.path.length + 1,
    title: fillKnown(step.title, ctx.values),
    text: fillKnown(step.text, ctx.values),
    options: record.status === 'active' ? kind.options(step, ctx) : [],
    ...(kind.input ? { input: kind.input } : {}),
    ...(kind.final ? { final: true } : {}),
    ...kind.details?.(step, ctx, parsers),
    canBack:
      record.status !== 'abandoned' && (record.rounds.length > 0 || record.path.some((e) => !e.prefilled)),
  };
}
