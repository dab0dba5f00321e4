import type { WebClient } from '@slack/web-api';
import { MemdoctorError, StoreUnavailableError, WalkthroughConflictError } from '../errors.ts';
import type { WalkthroughEvent, WalkthroughRecord } from '../walkthrough/index.ts';
import type { SlackDeps } from './deps.ts';
import { explainFailure, storeDownText } from './failures.ts';
import { countWalkthroughEnd } from './outcomes.ts';
import type { Block } from './views/blocks.ts';
import { NAV_DONE } from './views/step.ts';
import { findStepMessage, lastAnswerTo, markAnswered, postProgress, type Thread } from './walk-messages.ts';

/** One answer to a walkthrough step, from a click, a reply or a file. */
export interface StepAnswer {
  record: WalkthroughRecord;
  event: WalkthroughEvent;
  user: string;
  thread: Thread;
  /** The clicked message, when the answer is a click; otherwise it is looked up in the thread. */
  message?: { ts: string; blocks: Block[] };
  /** The version the person saw (from the button); defaults to the record's. */
  expectedVersion?: number;
  /** The clicked button's text: what a bisection round shows, as it adds no path entry. */
  label?: string;
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

async function applyOrExplain(deps: SlackDeps, answer: StepAnswer): Promise<WalkthroughRecord | undefined> {
  const { record, event, user } = answer;
  try {
    const applied = await deps.walkthroughs.applyTo(
      record,
      event,
      user,
      answer.expectedVersion ?? record.version,
    );
    deps.metrics?.walkthroughTransitions.inc({ event: event.type });
    return applied;
  } catch (error) {
    if (error instanceof WalkthroughConflictError) {
      const fresh = await deps.walkthroughs.get(record.id).catch(() => undefined);
      await answer.tell(staleText(fresh, 'step' in event ? event.step : (record.current ?? undefined)));
      return undefined;
    }
    if (error instanceof StoreUnavailableError) {
      deps.log.warn({ walkthrough: record.id, code: error.code, err: error.message }, 'answer not stored');
      await answer.tell(storeDownText(error, ANSWER_NOT_RECORDED));
      return undefined;
    }
    if (error instanceof MemdoctorError) {
      await answer.tell(error.message);
      return undefined;
    }
    throw error;
  }
}

/**
 * Checks who is answering, applies the answer through the walkthrough service, marks the step's
 * message answered and posts what comes next. Refusals (not allowed, stale, unparseable) go only to
 * the person who answered.
 */
export async function answerStep(deps: SlackDeps, client: WebClient, answer: StepAnswer): Promise<void> {
  const { record, user, thread } = answer;
  if (!(await deps.oncall.mayAnswer(client, user, record.owner))) {
    await answer.tell(
      `Only <@${record.owner}>, who started this walkthrough, and the on-call engineers can answer its steps.`,
    );
    return;
  }
  const step = record.current;
  const after = await applyOrExplain(deps, answer);
  if (!after || !step) return;
  await countWalkthroughEnd(deps, record, after);
  deps.log.info(
    {
      walkthrough: record.id,
      playbook: record.playbook.id,
      channel: thread.channel,
      threadTs: thread.ts,
      step,
      event: answer.event.type,
      status: after.status,
    },
    'walkthrough step answered',
  );
  const given = after.path.length > record.path.length ? lastAnswerTo(after, step) : undefined;
  const nav = answer.event.type === 'back' || answer.event.type === 'abort' ? answer.event.type : undefined;
  const label = nav ? NAV_DONE[nav] : answer.label;
  const shown = given ?? (label ? { text: label, by: user } : undefined);
  try {
    const message = answer.message ?? (await findStepMessage(client, thread, record.id, step));
    if (message && shown) await markAnswered(client, thread.channel, message, shown);
  } catch (error) {
    // The answer is stored; a message that cannot be updated must not stop the next step.
    deps.log.warn({ walkthrough: record.id, err: explainFailure(error).message }, 'step message not updated');
  }
  await postProgress(deps, client, after, thread, record.path.length);
}
