// @ts-nocheck
import type { Logger } from 'pino';
import type { Playbook } from '../engine/playbook/schema.ts';
import type { LlmAssist } from '../llm/assist.ts';
import type { WalkthroughService } from '../walkthrough/index.ts';
import type { EventDedupe } from './dedupe.ts';
import type { OncallPolicy } from './oncall.ts';

/** The settings the Slack layer reads, taken from Config once at start-up. */
export interface SlackSettings {
  botToken: string;
  maxUploadBytes: number;
  maxExpandedBytes: number;
  /** Hosts a file download may use (see allowedFileHosts). */
  fileHosts: readonly string[];
  /** Transcripts longer than this go up as a file (default TRANSCRIPT_INLINE_CHARS). */
  transcriptInlineChars?: number;
}

/** Readiness as GET /healthz reports it. */
export interface Health {
  ok: boolean;
  store: 'memory' | 'redis';
  redis?: 'up' | 'down';
  playbooks: number;
}

/** Everything the listeners use; built once by startSlack, or by a test. */
export interface SlackDeps {
  settings: SlackSettings;
  playbooks: readonly Playbook[];
  dedupe: EventDedupe;
  walkthroughs: WalkthroughService;
  oncall: OncallPolicy;
  log: Logger;
  health(): Promise<Health>;
  /** The optional model help (docs/llm.md); undefined when no model is configured. */
  assist?: LlmAssist;
  /** Replaces fetch for file downloads and uploads (tests). */
  fetch?: typeof fetch;
}
