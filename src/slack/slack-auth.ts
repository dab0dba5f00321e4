import type { WebClient } from '@slack/web-api';

/** Slack's view of the bot token, as readiness reports it. */
export type SlackAuthState = 'ok' | 'rejected' | 'unreachable';

/** How long one auth.test answer is trusted: probes every few seconds must not each call Slack. */
export const AUTH_CHECK_MS = 10_000;

/** Slack's answers that mean the token itself is refused (not a network or Slack outage). */
const REJECTED = new Set([
  'invalid_auth',
  'not_authed',
  'token_revoked',
  'token_expired',
  'account_inactive',
]);

function stateOf(error: unknown): SlackAuthState {
  const code = (error as { data?: { error?: string } }).data?.error;
  return code && REJECTED.has(code) ? 'rejected' : 'unreachable';
}

/**
 * Whether Slack accepts the bot token now (auth.test), remembered for AUTH_CHECK_MS. A bot whose
 * token was revoked acknowledges requests but can post nothing: it must not be reported ready.
 */
export class SlackAuthWatch {
  private last?: { state: SlackAuthState; at: number };

  constructor(
    private readonly ttlMs = AUTH_CHECK_MS,
    private readonly now: () => number = Date.now,
  ) {}

  async state(client: WebClient): Promise<SlackAuthState> {
    if (this.last && this.now() - this.last.at < this.ttlMs) return this.last.state;
    let state: SlackAuthState = 'ok';
    try {
      await client.auth.test();
    } catch (error) {
      state = stateOf(error);
    }
    this.last = { state, at: this.now() };
    return state;
  }
}
