import {
  MemdoctorError,
  StoreUnavailableError,
  WalkthroughConflictError,
  WalkthroughForbiddenError,
  WalkthroughNotFoundError,
} from '../errors.ts';
import type { WalkthroughEvent, WalkthroughRecord, WalkthroughService } from '../walkthrough/index.ts';
import { countWalkthroughEnd, type OutcomeContext } from './record-outcome.ts';

/** What answering a step needs: the walkthroughs, and where outcomes are counted. */
export interface AnswerContext extends OutcomeContext {
  walkthroughs: WalkthroughService;
}

/** One answer to a walkthrough step, as a surface decoded it (a click, a reply, a file, a typed line). */
export interface AnswerRequest {
  walkthrough: string;
  event: WalkthroughEvent;
  actor: string;
  /** The version the person saw; an answer to an older one is refused as stale. */
  expectedVersion?: number;
  /** The step the person answered, when the event does not name it; the stored current step when unset. */
  step?: string;
  /** Whether `actor` may answer a walkthrough `owner` owns (owner, on-call); anyone when unset. */
  mayAnswer?: (owner: string) => Promise<boolean>;
}

/** Why an answer was not recorded; `error.message` is a sentence a person can act on. */
export type AnswerRefusal =
  | { kind: 'not-allowed'; error: WalkthroughForbiddenError }
  | { kind: 'gone'; error: WalkthroughNotFoundError }
  /** Someone answered first; `current` is the walkthrough now, `step` the one this answer was for. */
  | { kind: 'stale'; error: WalkthroughConflictError; current?: WalkthroughRecord; step?: string }
  | { kind: 'store-down'; error: StoreUnavailableError }
  | { kind: 'refused'; error: MemdoctorError };

export type AnswerResult =
  | { kind: 'answered'; before: WalkthroughRecord; after: WalkthroughRecord }
  | AnswerRefusal;

/** A failed answer as a refusal; errors that are not memdoctor's are thrown on. */
async function refusalOf(
  context: AnswerContext,
  request: AnswerRequest,
  before: WalkthroughRecord | undefined,
  error: unknown,
): Promise<AnswerRefusal> {
  if (error instanceof WalkthroughForbiddenError) return { kind: 'not-allowed', error };
  if (error instanceof WalkthroughNotFoundError) return { kind: 'gone', error };
  if (error instanceof StoreUnavailableError) return { kind: 'store-down', error };
  if (error instanceof WalkthroughConflictError) {
    // Read again so the person hears who answered first and where the walkthrough is now.
    const current = await context.walkthroughs.get(request.walkthrough).catch(() => undefined);
    const step =
      'step' in request.event ? request.event.step : (request.step ?? before?.current ?? undefined);
    return { kind: 'stale', error, ...(current ? { current } : {}), ...(step ? { step } : {}) };
  }
  if (error instanceof MemdoctorError) return { kind: 'refused', error };
  throw error;
}

/**
 * Answers a step with one call to the walkthrough service: the stored record is read, who answers
 * is checked against its owner, the answer is applied if nobody changed it since `expectedVersion`,
 * and a finished or abandoned walkthrough is counted. Refusals come back as data for the surface.
 */
export async function answerStep(context: AnswerContext, request: AnswerRequest): Promise<AnswerResult> {
  let before: WalkthroughRecord | undefined;
  const check = async (current: WalkthroughRecord) => {
    before = current;
    if (request.mayAnswer && !(await request.mayAnswer(current.owner)))
      throw new WalkthroughForbiddenError(current.owner);
  };
  try {
    const { walkthrough, event, actor, expectedVersion } = request;
    const after = await context.walkthroughs.apply(walkthrough, event, actor, expectedVersion, check);
    const read = before ?? after;
    await countWalkthroughEnd(context, read, after);
    return { kind: 'answered', before: read, after };
  } catch (error) {
    return refusalOf(context, request, before, error);
  }
}
