// @ts-nocheck
import type { StepView, WalkthroughRecord } from '../../walkthrough/index.ts';
import { answerText, rangeText, UNIT_HINT, UNIT_RANGE } from '../../walkthrough/index.ts';

/** The step's own bounds, where they are narrower than its unit's. */
function range(view: StepView): string {
  const unit = view.unit ?? 'count';
  const own = UNIT_RANGE[unit];
  const min = Math.max(view.min ?? own.min, own.min);
  const max = view.max === undefined ? own.max : Math.min(view.max, own.max ?? view.max);
  return min === own.min && max === own.max ? '' : ` (${rangeText(unit, min, max)})`;
}

function numbered(view: StepView): string[] {
  return view.options.map((o, i) => `  ${i + 1}. ${o.label}`);
}

function skipHint(view: StepView): string {
  return view.options.some((o) => o.event.type === 'skip') ? ', or type skip' : '';
}

function body(view: StepView): string[] {
  switch (view.kind) {
    case 'instruction':
    case 'question':
      return [...numbered(view), 'Answer with a number.'];
    case 'measurement':
      return [`Type ${UNIT_HINT[view.unit ?? 'count']}${range(view)}${skipHint(view)}.`];
    case 'paste':
      return [
        `Paste the output of: ${view.parser?.howToGet ?? 'the command above'}`,
        `Then type . on a line of its own (or press Ctrl-D); blank lines in the output are kept. A file path reads the output from that file${skipHint(view)}.`,
      ];
    case 'bisection': {
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
    case 'conclusion':
      return [
        'Fix:',
        ...(view.fix ?? []).map((f) => `  - ${f}`),
        'Verify:',
        ...(view.verify ?? []).map((v) => `  - ${v}`),
      ];
  }
}

/** The current step for the terminal: title, text, and how to answer. */
export function renderStep(view: StepView): string {
  const head =
    view.kind === 'conclusion' ? `== Conclusion: ${view.title}` : `-- Step ${view.number}: ${view.title}`;
  return `\n${[head, view.text, ...body(view)].join('\n')}\n`;
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
