import type { WebClient } from '@slack/web-api';
import { type AnswerRefusal, type AnswerResult, answerStep as applyAnswer } from '../usecases/answer-step.ts';
import type { WalkthroughEvent, WalkthroughRecord } from '../walkthrough/index.ts';
import type { SlackDeps } from './deps.ts';
import { explainFailure, storeDownText } from './failures.ts';
import type { Block } from './views/blocks.ts';
import { NAV_DONE } from './views/step.ts';
import {
  findStepMessage,
  lastAnswerTo,
  markAnswered,
  postAnsweredCharts,
  postProgress,
  type Thread,
} from './walk-messages.ts';

/** One answer to a walkthrough step, from a click, a reply or a file. */
export interface StepAnswer {
  walkthrough: string;
  event: WalkthroughEvent;
  user: string;
  thread: Thread;
  /** The clicked message, when the answer is a click; otherwise it is looked up in the thread. */
  message?: { ts: string; blocks: Block[] };
  /** The version the person saw (from the button, or the record a reply was read against). */
  expectedVersion?: number;
  /** The step a reply was read against (a click's is the stored one). */
  step?: string;
  /** The clicked button's text: what a bisection round shows, as it adds no path entry. */
  label?: string;
  /** What to say when the walkthrough is gone; its error's message when unset. */
  goneText?: string;
  /** Tells only the person who answered (ephemeral). */
  tell(text: string): Promise<void>;
}

/** What did not happen when Redis fails on an answer. */
export const ANSWER_NOT_RECORDED = 'your answer was not recorded';

function staleText(fresh: WalkthroughRecord | undefined, step: string | undefined): string {
  const answered = fresh && step ? lastAnswerTo(fresh, step) : undefined;
  if (answered)
    return `That step was already answered by <@${answered.by}>: ${answered.text}. The walkthrough has moved on.`;
  return 'That step is no longer waiting for an answer; the walkthrough has moved on.';
}

/** Why someone who is neither the walkthrough's owner nor on call cannot answer its steps. */
export function notAllowedText(owner: string): string {
  return `Only <@${owner}>, who started this walkthrough, and the on-call engineers can answer its steps.`;
}

/** A refused answer, in the words the person who answered is told. */
function refusalText(deps: SlackDeps, answer: StepAnswer, refusal: AnswerRefusal): string {
  switch (refusal.kind) {
    case 'not-allowed':
      return notAllowedText(refusal.error.owner);
    case 'stale':
      return staleText(refusal.current, refusal.step);
    case 'store-down': {
      const { error } = refusal;
      deps.log.warn(
        { walkthrough: answer.walkthrough, code: error.code, err: error.message },
        'answer not stored',
      );
      return storeDownText(error, ANSWER_NOT_RECORDED);
    }
    case 'gone':
      return answer.goneText ?? refusal.error.message;
    case 'refused':
      return refusal.error.message;
  }
}

/** Marks the answered step's message (buttons gone, answer shown); a failure there is only logged. */
async function markStep(
  deps: SlackDeps,
  client: WebClient,
  answer: StepAnswer,
  before: WalkthroughRecord,
  after: WalkthroughRecord,
): Promise<void> {
  const step = before.current;
  if (!step) return;
  const given = after.path.length > before.path.length ? lastAnswerTo(after, step) : undefined;
  const nav = answer.event.type === 'back' || answer.event.type === 'abort' ? answer.event.type : undefined;
  const label = nav ? NAV_DONE[nav] : answer.label;
  const shown = given ?? (label ? { text: label, by: answer.user } : undefined);
  try {
    const message = answer.message ?? (await findStepMessage(client, answer.thread, before.id, step));
    if (message && shown) await markAnswered(client, answer.thread.channel, message, shown);
  } catch (error) {
    // The answer is stored; a message that cannot be updated must not stop the next step.
    deps.log.warn({ walkthrough: before.id, err: explainFailure(error).message }, 'step message not updated');
  }
}

/** The answer as the use case's request: the on-call policy decides who may answer. */
function apply(deps: SlackDeps, client: WebClient, answer: StepAnswer) {
  return applyAnswer(deps, {
    walkthrough: answer.walkthrough,
    event: answer.event,
    actor: answer.user,
    ...(answer.expectedVersion !== undefined ? { expectedVersion: answer.expectedVersion } : {}),
    ...(answer.step ? { step: answer.step } : {}),
    mayAnswer: (owner) => deps.oncall.mayAnswer(client, answer.user, owner),
  });
}

/**
 * Hands the answer to the answer-step use case (who may answer, stale answers, one store call),
 * then marks the step's message answered and posts what comes next. Refusals (not allowed, stale,
 * unparseable) go only to the person who answered.
 */
export async function answerStep(deps: SlackDeps, client: WebClient, answer: StepAnswer): Promise<void> {
  return settleAnswer(deps, client, answer, await apply(deps, client, answer));
}

/** After the use case: a refusal told to the person, or the step marked and what comes next posted. */
export async function settleAnswer(
  deps: SlackDeps,
  client: WebClient,
  answer: StepAnswer,
  result: AnswerResult,
): Promise<void> {
  const { thread, event } = answer;
  if (result.kind !== 'answered') return answer.tell(refusalText(deps, answer, result));
  const { before, after } = result;
  deps.metrics?.walkthroughTransitions.inc({ event: event.type });
  if (!before.current) return;
  deps.log.info(
    {
      walkthrough: before.id,
      playbook: before.playbook.id,
      channel: thread.channel,
      threadTs: thread.ts,
      step: before.current,
      event: event.type,
      status: after.status,
    },
    'walkthrough step answered',
  );
  await markStep(deps, client, answer, before, after);
  await postProgress(deps, client, after, thread, before.path.length);
  await postAnsweredCharts(deps, client, after, thread, before.path.length);
}
