// @ts-nocheck
import { asMemdoctorError, MemdoctorError } from '../errors.ts';

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

/** The sentence to show a person for a failure: memdoctor's own message, or advice for a Slack error. */
export function explainFailure(error: unknown): { code: string; message: string } {
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
