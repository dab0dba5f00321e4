import type { Diagnosis } from '../engine/index.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { asMemdoctorError } from '../errors.ts';
import type { LlmAssist } from '../llm/assist.ts';
import { needsSuggestion } from '../llm/confidence.ts';
import type { Selection } from '../llm/select.ts';
import type { Suggestion } from '../llm/triage.ts';

/** The part of the model assist a diagnosis uses. */
export type SuggestionAssist = Pick<LlmAssist, 'suggest'>;

/** What the model is asked about, besides the playbooks. */
export interface UnsureDiagnosis {
  workspace: string;
  diagnoses: readonly Diagnosis[];
  /** The selected lines, read only when a suggestion is needed (a tap's selection waits for the input). */
  selection: () => Promise<Selection | undefined>;
  hint?: string;
}

/**
 * The model's suggestion, asked only when a model is configured and the engine recognised nothing or
 * little. Never throws: a failed model call or selection is a note, so the deterministic diagnosis
 * always goes out.
 */
export async function suggestWhenUnsure(
  context: { playbooks: readonly Playbook[]; assist?: SuggestionAssist },
  unsure: UnsureDiagnosis,
): Promise<{ suggestion?: Suggestion; note?: string }> {
  const { assist, playbooks } = context;
  if (!assist || !needsSuggestion(unsure.diagnoses)) return {};
  try {
    const selection = await unsure.selection();
    if (!selection)
      return { note: 'no model suggestion: the input could not be read a second time for the model' };
    const outcome = await assist.suggest({
      workspace: unsure.workspace,
      playbooks,
      diagnoses: unsure.diagnoses,
      selection,
      ...(unsure.hint ? { hint: unsure.hint } : {}),
    });
    return outcome.value ? { suggestion: outcome.value } : { note: `no model suggestion: ${outcome.note}` };
  } catch (error) {
    return { note: `no model suggestion: ${asMemdoctorError(error).message}` };
  }
}
