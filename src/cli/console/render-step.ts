import type { StepView, WalkthroughRecord } from '../../walkthrough/index.ts';
import { answerText } from '../../walkthrough/index.ts';

const UNIT_WORDS: Readonly<Record<string, string>> = {
  percent: '%',
  bytes: 'bytes',
  MiB: 'MiB',
  GiB: 'GiB',
  seconds: 'seconds',
  ms: 'ms',
  count: '',
  ratio: '(a ratio, e.g. 0.8)',
};

function range(view: StepView): string {
  if (view.min === undefined && view.max === undefined) return '';
  return ` between ${view.min ?? '-∞'} and ${view.max ?? '∞'}`;
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
      return [
        `Type the number${range(view)} ${UNIT_WORDS[view.unit ?? ''] ?? view.unit ?? ''}${skipHint(view)}.`.replace(
          / +\./,
          '.',
        ),
      ];
    case 'paste':
      return [
        `Paste the output of: ${view.parser?.howToGet ?? 'the command above'}`,
        `End it with an empty line (or Ctrl-D)${skipHint(view)}.`,
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
