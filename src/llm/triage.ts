import type { Logger } from 'pino';
import { z } from 'zod';
import type { Diagnosis, Evidence } from '../engine/index.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { type AskDeps, ask, inputCharBudget, type Outcome } from './ask.ts';
import { loadPrompt } from './prompts.ts';
import { mergeReceipts, type RedactionReceipt, redact } from './redact.ts';
import type { SelectedLine, Selection } from './select.ts';

export { LOW_CONFIDENCE, needsSuggestion } from './confidence.ts';

const MAX_RATIONALE_CHARS = 1200;
const MAX_CITED = 6;

/** The model's suggestion, in the shape of the `diagnose --json` contract. */
export interface Suggestion {
  /** A playbook id, or "none" when the model found that none fits. */
  playbook: string;
  confidence: number;
  rationale: string;
  /** Cited lines that exist in the input, with their (redacted) text. */
  evidence: Evidence[];
}

/**
 * The answer the model must give. Strict structured outputs accept no string length limits, so
 * lengths are enforced after parsing; ids are an enum so an unknown playbook fails validation.
 */
export function triageSchema(playbookIds: readonly string[]) {
  return z.object({
    playbook: z.enum(['none', ...playbookIds] as [string, ...string[]]),
    confidence: z.number().min(0).max(1),
    rationale: z.string(),
    evidence: z.array(z.object({ line: z.number().int().min(1), quote: z.string() })).max(MAX_CITED),
  });
}

type TriageAnswer = z.infer<ReturnType<typeof triageSchema>>;

function engineSummary(diagnoses: readonly Diagnosis[], hint: string | undefined): string {
  const top = diagnoses[0];
  const said = hint ? ` The user says the log comes from ${hint}.` : '';
  if (!top) return `The rule engine recognised no playbook in this log.${said}`;
  return `The rule engine's best match was ${top.playbook} with a low confidence of ${top.confidence}.${said}`;
}

/** The user message: playbooks, the engine's view, then the numbered, redacted lines. */
export function triageInput(
  playbooks: readonly Playbook[],
  diagnoses: readonly Diagnosis[],
  selection: Selection,
  lines: readonly SelectedLine[],
  hint?: string,
): string {
  const catalogue = playbooks.map((p) => `- ${p.id}: ${p.title}. ${p.summary.trim().replace(/\s+/g, ' ')}`);
  return [
    'Playbooks:',
    ...catalogue,
    '',
    engineSummary(diagnoses, hint),
    '',
    `Log lines (${lines.length} selected of ${selection.seen}):`,
    ...lines.map((l) => `L${l.line}: ${l.text}`),
  ].join('\n');
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** Keeps the cited lines that were sent and whose quote is really on that line; logs the rest. */
export function verifyEvidence(
  cited: TriageAnswer['evidence'],
  sent: readonly SelectedLine[],
  log: Logger,
): Evidence[] {
  const byLine = new Map(sent.map((l) => [l.line, l.text]));
  const kept = new Map<number, string>();
  for (const { line, quote } of cited) {
    const text = byLine.get(line);
    if (text === undefined) {
      log.warn({ line }, 'cited line dropped: the model was not given this line');
      continue;
    }
    if (squash(quote) === '' || !squash(text).includes(squash(quote))) {
      log.warn({ line, quote: quote.slice(0, 200) }, 'cited line dropped: the quote is not on that line');
      continue;
    }
    kept.set(line, text);
  }
  return [...kept].sort(([a], [b]) => a - b).map(([line, text]) => ({ line, text }));
}

/** Redacts each selected line on its own, so cited lines can be matched to what was sent. */
function redactLines(selected: readonly SelectedLine[]): {
  lines: SelectedLine[];
  redacted: RedactionReceipt;
} {
  const redacted: RedactionReceipt = {};
  const lines = selected.map((l) => {
    const { text, receipt } = redact(l.text);
    mergeReceipts(redacted, receipt);
    return { line: l.line, text };
  });
  return { lines, redacted };
}

function toSuggestion(answer: TriageAnswer, evidence: Evidence[]): Suggestion {
  const rationale = answer.rationale.trim();
  return {
    playbook: answer.playbook,
    confidence: Math.round(answer.confidence * 100) / 100,
    rationale:
      rationale.length > MAX_RATIONALE_CHARS ? `${rationale.slice(0, MAX_RATIONALE_CHARS)}…` : rationale,
    evidence,
  };
}

/**
 * Drops lines from the middle until the user message fits the budget, so the first signs of
 * trouble and the final errors both stay (an end cut would lose the last, most telling lines).
 */
export function fitLines(
  lines: readonly SelectedLine[],
  budgetChars: number,
  render: (l: SelectedLine[]) => string,
) {
  const kept = [...lines];
  while (kept.length > 1 && render(kept).length > budgetChars) kept.splice(Math.floor(kept.length / 2), 1);
  return kept;
}

/** What `suggestPlaybook` needs: the engine's result and the lines the selector kept. */
export interface TriageRequest {
  workspace: string;
  playbooks: readonly Playbook[];
  diagnoses: readonly Diagnosis[];
  selection: Selection;
  /** The system the user named (`--engine glue`), when the log alone may not show it. */
  hint?: string;
}

/**
 * Asks the model to pick a playbook (or none) for a log the engine could not place with
 * confidence. The answer is validated against the schema, its cited lines are checked against the
 * input, and an answer left with no verifiable evidence is dropped.
 */
export async function suggestPlaybook(deps: AskDeps, request: TriageRequest): Promise<Outcome<Suggestion>> {
  if (request.selection.lines.length === 0)
    return { value: undefined, note: 'no error or memory lines in this input to show a model' };
  const { lines: redactedLines, redacted } = redactLines(request.selection.lines);
  const prompt = loadPrompt('triage');
  const render = (kept: SelectedLine[]) =>
    triageInput(request.playbooks, request.diagnoses, request.selection, kept, request.hint);
  const budget = inputCharBudget(prompt.text, deps.settings.maxInputTokens);
  // Only the lines that are really sent can be cited.
  const lines = fitLines(redactedLines, budget, render);
  const log = deps.log.child({ prompt: 'triage' });
  let evidence: Evidence[] = [];
  const outcome = await ask(deps, {
    prompt,
    schema: triageSchema(request.playbooks.map((p) => p.id)),
    schemaName: 'memdoctor_triage',
    input: render(lines),
    workspace: request.workspace,
    maxOutputTokens: 800,
    redacted,
    check(answer) {
      evidence = verifyEvidence(answer.evidence, lines, log);
      if (answer.playbook !== 'none' && evidence.length === 0)
        return `it suggested ${answer.playbook} but none of the lines it cited are in the input`;
      return undefined;
    },
  });
  if (outcome.value === undefined) return outcome;
  return { ...outcome, value: toSuggestion(outcome.value, evidence) };
}
