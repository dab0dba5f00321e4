import {
  type CaseLimits,
  type CaseReport,
  DEFAULT_CASE_LIMITS,
  type LeftOut,
  readStoredInput,
  reportStoredCase,
  type StoredInput,
} from '../engine/case/index.ts';
import type { EngineHint } from '../engine/index.ts';
import { InputTooLargeError } from '../errors.ts';
import { routeCaseInput } from './case-heap-dump.ts';
import type { DiagnosisContext } from './diagnose.ts';

/** Several inputs read as one case (`memdoctor diagnose --together a.log b.log pmap.txt`). */
export interface CaseRequest {
  inputs: { source: string; chunks: AsyncIterable<Uint8Array> }[];
  engine?: EngineHint;
  limits?: Partial<CaseLimits>;
}

/**
 * Reads one input of a case into what a case keeps: a heap dump through the heap analysis (its
 * bytes do not count against the case's text limit: the heap-dump budget bounds them), text into
 * its lines' keys, facts and times, within the bytes the case has left.
 */
async function readOne(
  input: CaseRequest['inputs'][number],
  maxBytes: number,
  context: DiagnosisContext,
): Promise<{ stored: StoredInput; textBytes: number }> {
  const routed = await routeCaseInput(input, context.playbooks, context.heapDumpBudget);
  if ('stored' in routed) return { stored: routed.stored, textBytes: 0 };
  const stored = await readStoredInput({ source: input.source, chunks: routed.chunks }, maxBytes);
  return { stored, textBytes: stored.bytes };
}

/**
 * The case use case: reads the inputs within the case's limits (past them, an input is left out,
 * unread, with why), joins those that share a key (container, application, executor, TaskManager,
 * pod, pid) and a time, diagnoses each group as one fact set and refines its causes with the
 * verdicts of the other inputs of the same process. No model is asked: a case's answer is the engine's.
 */
export async function diagnoseCase(request: CaseRequest, context: DiagnosisContext): Promise<CaseReport> {
  const limits = { ...DEFAULT_CASE_LIMITS, ...request.limits };
  const inputs: StoredInput[] = [];
  const leftOut: LeftOut[] = [];
  let bytes = 0;
  for (const [index, input] of request.inputs.entries()) {
    if (index >= limits.maxInputs) {
      leftOut.push({ source: input.source, reason: `a case holds at most ${limits.maxInputs} inputs` });
      continue;
    }
    try {
      const one = await readOne(input, limits.maxBytes - bytes, context);
      bytes += one.textBytes;
      inputs.push(one.stored);
    } catch (error) {
      if (!(error instanceof InputTooLargeError)) throw error;
      leftOut.push({
        source: input.source,
        reason: `the case would pass its limit of ${limits.maxBytes} bytes (${bytes} read before it)`,
      });
    }
  }
  return reportStoredCase({ inputs, leftOut }, context.playbooks, request.engine);
}
