import type { StepView } from '../../../walkthrough/index.ts';

/** A conclusion at the terminal: the fix, then how to verify it. */
export function conclusionBody(view: StepView): string[] {
  return [
    'Fix:',
    ...(view.fix ?? []).map((f) => `  - ${f}`),
    'Verify:',
    ...(view.verify ?? []).map((v) => `  - ${v}`),
  ];
}
