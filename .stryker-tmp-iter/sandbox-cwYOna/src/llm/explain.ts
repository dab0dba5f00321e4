// @ts-nocheck
import { z } from 'zod';
import type { Diagnosis } from '../engine/index.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { type AskDeps, ask, type Outcome } from './ask.ts';
import { loadPrompt } from './prompts.ts';

const ExplainSchema = z.object({ explanation: z.string() });
const MAX_EXPLANATION_CHARS = 2500;

/** The user message: only the playbook's own text and the diagnosis's evidence lines. */
export function explainInput(diagnosis: Diagnosis, playbook: Playbook): string {
  const cause = playbook.causes.find((c) => c.id === diagnosis.cause);
  return [
    `Playbook: ${playbook.title} (${playbook.id})`,
    `Summary: ${playbook.summary.trim()}`,
    `Explanation: ${playbook.explanation.trim()}`,
    ...(cause ? [`Likely cause: ${cause.title}. ${cause.explanation.trim()}`] : []),
    `Suggested actions:`,
    ...diagnosis.actions.map((a) => `- ${a}`),
    '',
    'Evidence lines:',
    ...diagnosis.evidence.map((e) => `L${e.line}: ${e.text}`),
  ].join('\n');
}

export interface ExplainRequest {
  workspace: string;
  diagnosis: Diagnosis;
  playbook: Playbook;
}

/** A plain-language explanation of a diagnosis for someone new to the system, or a note. */
export async function explainDiagnosis(deps: AskDeps, request: ExplainRequest): Promise<Outcome<string>> {
  const outcome = await ask(deps, {
    prompt: loadPrompt('explain'),
    schema: ExplainSchema,
    schemaName: 'memdoctor_explanation',
    input: explainInput(request.diagnosis, request.playbook),
    workspace: request.workspace,
    maxOutputTokens: 700,
    check: (answer) => (answer.explanation.trim() === '' ? 'the explanation was empty' : undefined),
  });
  if (outcome.value === undefined) return outcome;
  const text = outcome.value.explanation.trim();
  const bounded = text.length > MAX_EXPLANATION_CHARS ? `${text.slice(0, MAX_EXPLANATION_CHARS)}…` : text;
  return { ...outcome, value: bounded };
}
