import type { StepView } from '../../src/walkthrough/index.ts';

/** A step view as the service gives one (an active instruction with two options), changed by `over`. */
export function stepView(over: Partial<StepView> = {}): StepView {
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
