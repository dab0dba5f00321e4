import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { SlackDeps } from './deps.ts';

/**
 * How long a slash command's, view submission's or message shortcut's trigger_id is remembered: a signed request can
 * be replayed while its timestamp is within Slack's 5 minutes (either side of the clock), so 15
 * minutes covers it with room for clock drift between replicas.
 */
export const TRIGGER_TTL_SECONDS = 15 * 60;

interface Delivery {
  /** The claim that makes it run once: `event:<event_id>`, `command:<trigger_id>`, `view:<trigger_id>`, `shortcut:<trigger_id>:<message ts>`. */
  claim: string;
  ttlSeconds?: number;
}

/** What identifies one delivery of a request, when it has anything that does. */
function deliveryOf(body: Record<string, unknown>): Delivery | undefined {
  if (typeof body.event_id === 'string') return { claim: `event:${body.event_id}` };
  const trigger = typeof body.trigger_id === 'string' ? body.trigger_id : undefined;
  if (!trigger) return undefined;
  if (typeof body.command === 'string')
    return { claim: `command:${trigger}`, ttlSeconds: TRIGGER_TTL_SECONDS };
  if (body.type === 'view_submission') return { claim: `view:${trigger}`, ttlSeconds: TRIGGER_TTL_SECONDS };
  // A message shortcut is one person's one use on one message: its trigger_id and the message's ts.
  if (body.type === 'message_action' && typeof body.message_ts === 'string')
    return { claim: `shortcut:${trigger}:${body.message_ts}`, ttlSeconds: TRIGGER_TTL_SECONDS };
  return undefined;
}

/**
 * Runs each Events API delivery, slash command, view submission and message shortcut once. Slack retries events
 * (X-Slack-Retry-Num) when an ack is late or a replica dies, and a captured signed request can be
 * replayed within the 5 minutes its signature holds; Bolt dedupes neither, so the event_id or
 * trigger_id is claimed in the shared store first. A repeat is acknowledged and dropped. When the
 * store is down the request is processed anyway: a rare double reply beats a lost upload.
 */
export function dedupeEvents(deps: SlackDeps): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const { body, context, next } = args;
    const delivery = deliveryOf(body as Record<string, unknown>);
    if (delivery) {
      let first = true;
      try {
        first = await deps.dedupe.firstTime(delivery.claim, delivery.ttlSeconds);
      } catch (error) {
        deps.log.warn({ claim: delivery.claim, err: String(error) }, 'dedupe unavailable; processing anyway');
      }
      if (!first) {
        deps.log.info(
          { claim: delivery.claim, retryNum: context.retryNum, retryReason: context.retryReason },
          'repeat delivery skipped',
        );
        // Events are acknowledged by Bolt itself; a command or a view waits for its ack.
        if ('ack' in args && typeof args.ack === 'function') await args.ack();
        return;
      }
    }
    await next();
  };
}
