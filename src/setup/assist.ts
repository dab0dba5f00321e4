import type { Config } from '../config.ts';
import { asMemdoctorError } from '../errors.ts';
import { type AssistOptions, createLlmAssist, type LlmAssist } from '../llm/assist.ts';

/** The model assist, or why it is off when a model was configured but cannot be used. */
export interface AssistChoice {
  assist?: LlmAssist;
  /** Set when the assist is off because of a problem (a bad setting); unset when simply not configured. */
  off?: string;
}

/**
 * The model assist when one is configured (OPENAI_API_KEY). A problem with the configuration, or in
 * creating the assist, switches it off with the reason instead of stopping anything: memdoctor's
 * diagnosis never depends on a model.
 */
export function openAssist(config: Config, options: AssistOptions & { problem?: Error } = {}): AssistChoice {
  const { problem, ...assistOptions } = options;
  if (problem) return { off: asMemdoctorError(problem).message };
  try {
    const assist = createLlmAssist(config, assistOptions);
    return assist ? { assist } : {};
  } catch (error) {
    return { off: asMemdoctorError(error).message };
  }
}
