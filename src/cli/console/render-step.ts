import type { StepView, WalkthroughRecord } from '../../walkthrough/index.ts';
import { answerText } from '../../walkthrough/index.ts';

function numbered(view: StepView): string[] {
  return view.options.map((o, i) => `  ${i + 1}. ${o.label}`);
}

function skipHint(view: StepView): string {
  return view.options.some((o) => o.event.type === 'skip') ? ', or type skip' : '';
}

/** How a step is answered at the terminal, from its input: a value, pasted output, or a number. */
function answerLines(view: StepView): string[] {
  if (view.input === 'value')
    return [`Type ${view.hint ?? 'a number'}${view.bounds ? ` (${view.bounds})` : ''}${skipHint(view)}.`];
  if (view.input === 'output')
    return [
      `Paste the output of: ${view.parser?.howToGet ?? 'the command above'}`,
      `Then type . on a line of its own (or press Ctrl-D); blank lines in the output are kept. A file path reads the output from that file${skipHint(view)}.`,
    ];
  return view.options.length > 0 ? [...numbered(view), 'Answer with a number.'] : [];
}

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

function conclusionBody(view: StepView): string[] {
  return [
    'Fix:',
    ...(view.fix ?? []).map((f) => `  - ${f}`),
    'Verify:',
    ...(view.verify ?? []).map((v) => `  - ${v}`),
  ];
}

/**
 * Kinds whose terminal view shows more than their options or input (rounds, the fix); every other
 * kind, a new one too, is shown by how it is answered.
 */
const BODIES: Readonly<Record<string, (view: StepView) => string[]>> = {
  bisection: bisectionBody,
  conclusion: conclusionBody,
};

/** The current step for the terminal: title, text, and how to answer. */
export function renderStep(view: StepView): string {
  const head = view.final ? `== Conclusion: ${view.title}` : `-- Step ${view.number}: ${view.title}`;
  const body = BODIES[view.kind]?.(view) ?? answerLines(view);
  return `\n${[head, view.text, ...body].join('\n')}\n`;
}

/** The steps answered by an event (its own answer and any answered from known facts), one line each. */
export function renderProgress(before: WalkthroughRecord, after: WalkthroughRecord): string {
  const lines: string[] = [];
  for (const entry of after.path.slice(before.path.length)) {
    const title = after.procedure.steps.find((s) => s.id === entry.step)?.title ?? entry.step;
    const mark = entry.prefilled ? 'known' : 'answered';
    lines.push(
      `  (${mark}) ${title}: ${answerText(entry.answer)}${entry.because ? ` (${entry.because})` : ''}`,
    );
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** One line per walkthrough for `status`. */
export function renderStatusLine(record: WalkthroughRecord, view: StepView | undefined): string {
  return `  ${record.id}  ${record.playbook.id}  ${record.status}  at "${view?.title ?? '-'}"  (v${record.version}, ${record.participants.join(', ')})`;
}
