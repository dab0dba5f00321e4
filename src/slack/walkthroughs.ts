import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { WalkthroughNotFoundError } from '../errors.ts';
import type { WalkthroughEvent } from '../walkthrough/events.ts';
import type { Conversation, Finding, WalkthroughRecord } from '../walkthrough/record.ts';

/** What starting a walkthrough from Slack needs. */
export interface StartRequest {
  where: Conversation;
  /** The thread it runs in (the diagnosis message's ts). */
  thread: string;
  playbook: string;
  owner: string;
  facts: Finding[];
  values: Record<string, string>;
}

/**
 * The walkthrough operations the Slack layer uses. The walkthrough service implements them (memory
 * or Redis store); Slack only translates clicks and replies into these calls and records into messages.
 */
export interface SlackWalkthroughs {
  start(request: StartRequest): Promise<WalkthroughRecord>;
  get(id: string): Promise<WalkthroughRecord | undefined>;
  /** Applies one event as `actor`; throws WalkthroughConflictError for a stale step or a lost race. */
  apply(id: string, event: WalkthroughEvent, actor: string): Promise<WalkthroughRecord>;
  listActive(where: Conversation): Promise<WalkthroughRecord[]>;
  transcript(id: string): Promise<string>;
}

/**
 * The walkthrough service for this configuration (Redis store with REDIS_URL, else memory).
 * Interim: the service facade is not merged yet, so every operation says walkthroughs are unavailable.
 */
export function createWalkthroughs(
  _config: Config,
  _playbooks: readonly Playbook[],
  _redis?: Redis,
): SlackWalkthroughs {
  const unavailable = async (): Promise<never> => {
    throw new WalkthroughNotFoundError('-', 'walkthroughs are not available in this build of memdoctor');
  };
  return {
    start: unavailable,
    get: unavailable,
    apply: unavailable,
    listActive: async () => [],
    transcript: unavailable,
  };
}
