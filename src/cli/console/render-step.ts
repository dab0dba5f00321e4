import type { StepView, WalkthroughRecord } from '../../walkthrough/index.ts';
import { answerText } from '../../walkthrough/index.ts';
import { answerLines, CONSOLE_STEP_BODIES, type ConsoleStepBody } from './step-kinds.ts';

/** The kind's own terminal view; a kind the registry does not know is shown by how it is answered. */
function bodyFor(view: StepView): string[] {
  const body = (CONSOLE_STEP_BODIES as Readonly<Record<string, ConsoleStepBody>>)[view.kind];
  return body ? body(view) : answerLines(view);
}

/** The current step for the terminal: title, text, and how to answer. */
export function renderStep(view: StepView): string {
  const head = view.final ? `== Conclusion: ${view.title}` : `-- Step ${view.number}: ${view.title}`;
  const body = bodyFor(view);
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
