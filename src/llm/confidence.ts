import type { Diagnosis } from '../engine/index.ts';

/** Below this top confidence the engine's answer is not enough and the model is asked too. */
export const LOW_CONFIDENCE = 0.5;

/**
 * True when the engine recognised nothing, or only with low confidence. In its own module so the
 * diagnosis can ask without loading the model client (openai) that triage.ts needs.
 */
export function needsSuggestion(diagnoses: readonly Pick<Diagnosis, 'confidence'>[]): boolean {
  const top = diagnoses[0];
  return top === undefined || top.confidence < LOW_CONFIDENCE;
}
