import type { StepKindName, StepView } from '../../walkthrough/index.ts';

/** The lines under a step's title and text at the terminal. */
export type ConsoleStepBody = (view: StepView) => string[];

/** A step's options, numbered as the terminal asks for them. */
function numbered(view: StepView): string[] {
  return view.options.map((o, i) => `  ${i + 1}. ${o.label}`);
}

function skipHint(view: StepView): string {
  return view.options.some((o) => o.event.type === 'skip') ? ', or type skip' : '';
}

/** How a step is answered at the terminal, from its input: a value, pasted output, or a number. */
export function answerLines(view: StepView): string[] {
  if (view.input === 'value')
    return [`Type ${view.hint ?? 'a number'}${view.bounds ? ` (${view.bounds})` : ''}${skipHint(view)}.`];
  if (view.input === 'output')
    return [
      `Paste the output of: ${view.parser?.howToGet ?? 'the command above'}`,
      `Then type . on a line of its own (or press Ctrl-D); blank lines in the output are kept. A file path reads the output from that file${skipHint(view)}.`,
    ];
  if (view.input === 'dump')
    return [
      `Type the path of the heap dump (.hprof or .hprof.gz; jcmd <pid> GC.heap_dump writes one)${skipHint(view)}. memdoctor reads it here; nothing of it leaves this machine.`,
    ];
  return view.options.length > 0 ? [...numbered(view), 'Answer with a number.'] : [];
}

/** A bisection round at the terminal: what is still suspected, what to run, and the symptom to look for. */
function bisectionBody(view: StepView): string[] {
  const b = view.bisection;
  if (!b) return [];
  return [
    `Round ${b.round}: ${b.remaining.length} of ${b.total} candidates still suspected.`,
    `Run with only: ${b.testWith.join(', ')}`,
    `(leave out: ${b.holdBack.join(', ')})`,
    `Does it show "${b.symptom}"?`,
    ...numbered(view),
  ];
}

/** A conclusion at the terminal: the fix, then how to verify it. */
function conclusionBody(view: StepView): string[] {
  return [
    'Fix:',
    ...(view.fix ?? []).map((f) => `  - ${f}`),
    'Verify:',
    ...(view.verify ?? []).map((v) => `  - ${v}`),
  ];
}

/**
 * Every step kind's terminal view, each beside its entry: a kind shown by its options and input alone
 * takes answerLines. A Record over the kind names, so a kind added to STEP_KINDS without a view here
 * fails the type check.
 */
export const CONSOLE_STEP_BODIES: Readonly<Record<StepKindName, ConsoleStepBody>> = {
  instruction: answerLines,
  question: answerLines,
  measurement: answerLines,
  paste: answerLines,
  bisection: bisectionBody,
  'heap-dump': answerLines,
  conclusion: conclusionBody,
};
