/**
 * A walkthrough as an agent sees it: where it stands, what was answered (and what the diagnosis
 * already answered), the current step with its numbered options, and how to continue it in the
 * console. One shape for walkthrough_start, walkthrough_answer and walkthrough_status.
 */
import { answerText, type StepView, type WalkthroughRecord } from '../walkthrough/index.ts';
import type { StepValue, WalkthroughStateValue } from './walkthrough-schema.ts';

function stepOf(view: StepView): StepValue {
  const { hint, bounds, parser, fix, verify } = view;
  return {
    id: view.step,
    number: view.number,
    kind: view.kind,
    title: view.title,
    text: view.text,
    final: view.final === true,
    ...(view.input ? { input: view.input } : {}),
    ...(hint ? { hint } : {}),
    ...(bounds ? { bounds } : {}),
    ...(parser ? { parser } : {}),
    ...(fix ? { fix } : {}),
    ...(verify ? { verify } : {}),
    options: view.options.map((o, i) => ({ n: i + 1, label: o.label })),
  };
}

/** How to pick the walkthrough up in the console: only a Redis store outlives this server. */
function resumeText(record: WalkthroughRecord, store: 'memory' | 'redis'): string {
  return store === 'redis'
    ? `memdoctor resume ${record.id}`
    : 'kept in memory by this MCP server until it stops; set REDIS_URL to continue it with memdoctor resume';
}

/** The walkthrough's state as JSON. */
export function walkthroughState(
  record: WalkthroughRecord,
  view: StepView | undefined,
  store: 'memory' | 'redis',
): WalkthroughStateValue {
  const title = (id: string) => record.procedure.steps.find((s) => s.id === id)?.title ?? id;
  return {
    id: record.id,
    playbook: { id: record.playbook.id, title: record.playbook.title },
    status: record.status,
    version: record.version,
    store,
    resume: resumeText(record, store),
    answered: record.path.map((entry) => ({
      step: entry.step,
      title: title(entry.step),
      answer: answerText(entry.answer),
      known: entry.prefilled,
      ...(entry.because ? { because: entry.because } : {}),
    })),
    ...(view ? { step: stepOf(view) } : {}),
  };
}

/** The current step and how to answer it. */
function stepText(step: NonNullable<WalkthroughStateValue['step']>): string[] {
  const out = [step.final ? `Conclusion: ${step.title}` : `Step ${step.number}: ${step.title}`, step.text];
  for (const line of step.fix ?? []) out.push(`  fix: ${line}`);
  for (const line of step.verify ?? []) out.push(`  verify: ${line}`);
  if (step.hint) out.push(`Answer: ${step.hint}${step.bounds ? ` (${step.bounds})` : ''}`);
  if (step.parser) out.push(`Paste the output of: ${step.parser.howToGet}`);
  for (const o of step.options) out.push(`  ${o.n}. ${o.label}`);
  return out;
}

/** The state as text: the steps answered since `shownBefore`, then the current step and how to answer it. */
export function walkthroughText(state: WalkthroughStateValue, shownBefore = 0): string {
  const out = [`Walkthrough ${state.id} (${state.playbook.title}): ${state.status}, v${state.version}.`];
  for (const a of state.answered.slice(shownBefore))
    out.push(
      `  (${a.known ? 'known' : 'answered'}) ${a.title}: ${a.answer}${a.because ? ` (${a.because})` : ''}`,
    );
  if (state.step) out.push(...stepText(state.step));
  if (state.status === 'done')
    out.push('Finished. walkthrough_status gives the transcript for incident notes.');
  out.push(`Continue in the console: ${state.resume}`);
  return out.join('\n');
}
