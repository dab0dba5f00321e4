import type { WebClient } from '@slack/web-api';
import { fixRate } from '../stats/outcomes.ts';
import type { WalkthroughRecord } from '../walkthrough/index.ts';
import type { SlackDeps } from './deps.ts';
import { explainFailure } from './failures.ts';
import { feedbackPrompt, fixRateNote } from './views/feedback.ts';

/** A conclusion shows its record once this many answers are in... */
export const FIX_RATE_MIN_ANSWERS = 3;
/** ...and fewer than this share of them said "fixed". */
export const FIX_RATE_WARN_BELOW = 0.5;

/** "In this workspace this fixed 2 of 7 cases", when a conclusion has often not fixed things. */
export async function fixRateWarning(
  deps: SlackDeps,
  record: WalkthroughRecord,
): Promise<string | undefined> {
  if (!deps.outcomes || record.status !== 'done' || !record.current) return undefined;
  try {
    const rate = fixRate(await deps.outcomes.rows(record.workspace), record.playbook.id, record.current);
    if (rate.answered < FIX_RATE_MIN_ANSWERS || rate.fixed >= rate.answered * FIX_RATE_WARN_BELOW)
      return undefined;
    return fixRateNote(rate);
  } catch (error) {
    deps.log.warn({ walkthrough: record.id, err: explainFailure(error).message }, 'fix rate not read');
    return undefined;
  }
}

/** After a conclusion: "Did this fix it?" in the walkthrough's thread (when outcomes are kept). */
export async function postFeedbackPrompt(
  deps: SlackDeps,
  client: WebClient,
  record: WalkthroughRecord,
  thread: { channel: string; ts: string },
): Promise<void> {
  if (!deps.outcomes || record.status !== 'done' || !record.current) return;
  const ref = { w: record.id, p: record.playbook.id, c: record.current };
  await client.chat.postMessage({ channel: thread.channel, thread_ts: thread.ts, ...feedbackPrompt(ref) });
}
