// @ts-nocheck
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { SlackDeps } from './deps.ts';

/**
 * Runs each Events API delivery once. Slack retries (X-Slack-Retry-Num) when an ack is late or a
 * replica dies; Bolt does not dedupe, so the event_id is claimed in the shared store first. When
 * the store is down the event is processed anyway: a rare double reply beats a lost upload.
 */
export function dedupeEvents(deps: SlackDeps): Middleware<AnyMiddlewareArgs> {
  return async ({ body, context, next }) => {
    const eventId = (body as { event_id?: unknown }).event_id;
    if (typeof eventId === 'string') {
      let first = true;
      try {
        first = await deps.dedupe.firstTime(`event:${eventId}`);
      } catch (error) {
        deps.log.warn({ eventId, err: String(error) }, 'event dedupe unavailable; processing anyway');
      }
      if (!first) {
        deps.log.info(
          { eventId, retryNum: context.retryNum, retryReason: context.retryReason },
          'repeat delivery skipped',
        );
        return;
      }
    }
    await next();
  };
}
