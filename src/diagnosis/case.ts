import {
  type CaseLimits,
  type CaseReport,
  DEFAULT_CASE_LIMITS,
  readCase,
  reportCase,
} from '../engine/case/index.ts';
import type { EngineHint } from '../engine/index.ts';
import type { DiagnosisContext } from './diagnose.ts';

/** Several inputs read as one case (`memdoctor diagnose --together a.log b.log pmap.txt`). */
export interface CaseRequest {
  inputs: { source: string; chunks: AsyncIterable<Uint8Array> }[];
  engine?: EngineHint;
  limits?: Partial<CaseLimits>;
}

/**
 * The case use case: reads the inputs within the case's limits, joins those that share a key
 * (container, application, executor, TaskManager, pod, pid) and diagnoses each group as one fact set.
 * No model is asked: a case's answer is the engine's alone.
 */
export async function diagnoseCase(request: CaseRequest, context: DiagnosisContext): Promise<CaseReport> {
  const limits = { ...DEFAULT_CASE_LIMITS, ...request.limits };
  const read = await readCase(request.inputs, limits);
  return reportCase(read, context.playbooks, request.engine);
}
