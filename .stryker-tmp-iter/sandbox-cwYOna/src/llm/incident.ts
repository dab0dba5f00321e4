// @ts-nocheck
import { z } from 'zod';
import { type AskDeps, ask, type Outcome } from './ask.ts';
import { loadPrompt } from './prompts.ts';

/** The draft incident note the model fills in; memdoctor renders the Markdown itself. */
export const IncidentSchema = z.object({
  title: z.string(),
  what_happened: z.string(),
  evidence: z.array(z.string()).max(12),
  tried: z.array(z.object({ action: z.string(), result: z.string() })).max(15),
  fix: z.string(),
  follow_ups: z.array(z.string()).max(10),
});
export type IncidentDraft = z.infer<typeof IncidentSchema>;

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();
const bullets = (items: readonly string[]): string[] =>
  items.length > 0 ? items.map((i) => `- ${oneLine(i)}`) : ['- not recorded'];

/** Renders the draft as Markdown with fixed headings, so every note reads the same way. */
export function renderIncident(draft: IncidentDraft): string {
  return [
    `# ${oneLine(draft.title) || 'Incident note'}`,
    '',
    '_Draft written by a model from the walkthrough transcript; check it before filing._',
    '',
    '## What happened',
    draft.what_happened.trim() || 'not recorded',
    '',
    '## Evidence',
    ...bullets(draft.evidence),
    '',
    '## What was tried',
    ...bullets(draft.tried.map((t) => `${t.action} → ${t.result}`)),
    '',
    '## The fix',
    draft.fix.trim() || 'not recorded',
    '',
    '## Follow-ups',
    ...bullets(draft.follow_ups),
    '',
  ].join('\n');
}

export interface IncidentRequest {
  workspace: string;
  /** The walkthrough transcript, in Markdown. */
  transcript: string;
}

/** A draft incident note (Markdown) from a walkthrough transcript, or a note saying why not. */
export async function draftIncident(deps: AskDeps, request: IncidentRequest): Promise<Outcome<string>> {
  if (request.transcript.trim() === '') return { value: undefined, note: 'the transcript is empty' };
  const outcome = await ask(deps, {
    prompt: loadPrompt('incident'),
    schema: IncidentSchema,
    schemaName: 'memdoctor_incident',
    input: request.transcript,
    workspace: request.workspace,
    maxOutputTokens: 1500,
  });
  if (outcome.value === undefined) return outcome;
  return { ...outcome, value: renderIncident(outcome.value) };
}
