import type { WebClient } from '@slack/web-api';
import { MemdoctorError, WalkthroughNotFoundError } from '../errors.ts';
import type { WalkthroughRecord } from '../walkthrough/index.ts';
import type { SlackDeps } from './deps.ts';
import { explainFailure } from './failures.ts';
import type { FeedbackRef } from './views/feedback.ts';

/** Who is asking, from where: the signed request's user and workspace. */
export interface FeedbackAsker {
  user: string;
  workspace: string;
}

/** The walkthrough a feedback click or note is about, or what to tell the person instead. */
export type FeedbackTarget =
  | { ok: true; ref: FeedbackRef; record: WalkthroughRecord }
  /** `why` is for the log; `text` for the person, unset when the request is not theirs to be told of. */
  | { ok: false; why: string; text?: string };

const GONE = 'This walkthrough is no longer stored (it may have expired), so no answer can be kept for it.';
const NOT_CONCLUDED = 'This walkthrough has not reached a conclusion, so there is nothing to answer yet.';

async function lookUp(deps: SlackDeps, id: string): Promise<WalkthroughRecord | string> {
  try {
    return await deps.walkthroughs.get(id);
  } catch (error) {
    if (error instanceof WalkthroughNotFoundError) return GONE;
    if (!(error instanceof MemdoctorError)) throw error;
    return `The answer was not saved: ${explainFailure(error).message}`;
  }
}

/**
 * Checks a "Did this fix it?" answer or note against the stored walkthrough, never the button's
 * value (a signed request can carry any): it must exist in the asker's workspace, have ended at a
 * conclusion, and the asker must be allowed to answer it (its owner, who it was handed to, or
 * on-call). The playbook and conclusion are the record's.
 */
export async function feedbackTarget(
  deps: SlackDeps,
  client: WebClient,
  walkthrough: string,
  asker: FeedbackAsker,
): Promise<FeedbackTarget> {
  const record = await lookUp(deps, walkthrough);
  if (typeof record === 'string') return { ok: false, why: 'not found', text: record };
  // Another workspace's walkthrough: a forged request; telling its sender anything helps nobody.
  if (record.workspace !== asker.workspace) return { ok: false, why: 'other workspace' };
  if (record.status !== 'done' || !record.current)
    return { ok: false, why: 'not concluded', text: NOT_CONCLUDED };
  if (!(await deps.oncall.mayAnswer(client, asker.user, record.owner)))
    return {
      ok: false,
      why: 'not allowed',
      text: `Only <@${record.owner}>, who owns this walkthrough, and the on-call engineers can say whether it fixed things.`,
    };
  return { ok: true, record, ref: { w: record.id, p: record.playbook.id, c: record.current } };
}
