import { asMemdoctorError, MemdoctorError, StoreUnavailableError } from '../errors.ts';

/** Slack Web API error codes a person can fix, with what to do. */
const SLACK_API_ADVICE: Readonly<Record<string, string>> = {
  not_in_channel: 'memdoctor is not in this channel. Invite it with /invite @memdoctor and try again.',
  channel_not_found:
    'memdoctor cannot see this channel. Invite it with /invite @memdoctor (private channels need an invite).',
  is_archived: 'this channel is archived; run memdoctor in an active channel.',
  msg_too_long: 'the reply was too long for Slack; try a shorter excerpt.',
};

function slackErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  const data = (error as { data?: { error?: unknown } }).data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

/**
 * What a chat user is told when Redis is unavailable: that it is, what did not happen (`outcome`,
 * e.g. "your answer was not recorded"), that nothing was lost, and to try again. The setting and
 * the address stay in the logs.
 */
export function storeDownText(error: StoreUnavailableError, outcome: string): string {
  return `:warning: Redis, where memdoctor keeps walkthroughs, is unavailable (${error.summary}), so ${outcome}. Nothing was lost: every change is stored whole or not at all. Try again once Redis is back; if this goes on, tell whoever runs memdoctor.`;
}

/** A failure to show and to log. */
export interface Failure {
  code: string;
  /** For the person in Slack. */
  message: string;
  /** For the log, when it says more than `message` (which setting, what Redis answered). */
  detail?: string;
}

/**
 * The sentence to show a person for a failure: memdoctor's own message, advice for a Slack error,
 * or for Redis being unavailable the chat text with `outcome` (what did not happen).
 */
export function explainFailure(error: unknown, outcome = 'nothing was done'): Failure {
  if (error instanceof StoreUnavailableError)
    return { code: error.code, message: storeDownText(error, outcome), detail: error.message };
  if (error instanceof MemdoctorError) return { code: error.code, message: error.message };
  const slackCode = slackErrorCode(error);
  if (slackCode)
    return {
      code: `slack:${slackCode}`,
      message: SLACK_API_ADVICE[slackCode] ?? `Slack refused the request (${slackCode}).`,
    };
  const wrapped = asMemdoctorError(error);
  return { code: wrapped.code, message: wrapped.message };
}
