import type OpenAI from 'openai';
import type { Logger } from 'pino';
import { type Config, redisTarget } from '../config.ts';
import { asMemdoctorError } from '../errors.ts';
import { childFor, createLogger } from '../log.ts';
import { connectCacheRedis, type RedisConnection } from '../redis/connect.ts';
import type { AskDeps, Outcome } from './ask.ts';
import { type ExplainRequest, explainDiagnosis } from './explain.ts';
import { draftIncident, type IncidentRequest } from './incident.ts';
import { llmSettings, openAiClient } from './settings.ts';
import { type LlmStore, MemoryLlmStore, RedisLlmStore } from './store.ts';
import { type Suggestion, suggestPlaybook, type TriageRequest } from './triage.ts';

/** The three places a model may help. Every method resolves; a failure is a note, never a throw. */
export interface LlmAssist {
  /** Fallback triage when the engine is unsure: a playbook id (or "none") with checked evidence. */
  suggest(request: TriageRequest): Promise<Outcome<Suggestion>>;
  /** A plain-language explanation of a diagnosis, grounded in the playbook text and evidence. */
  explain(request: ExplainRequest): Promise<Outcome<string>>;
  /** A draft incident note (Markdown) from a walkthrough transcript. */
  incidentNote(request: IncidentRequest): Promise<Outcome<string>>;
  /** Releases what the assist opened itself (its Redis connection); a passed-in client stays open. */
  close(): Promise<void>;
}

export interface AssistOptions {
  log?: Logger;
  /** A shared Redis client (the bot's); without it one is opened from REDIS_URL or REDIS_CLUSTER_NODES, if set. */
  redis?: RedisConnection;
  store?: LlmStore;
  client?: OpenAI;
  /** Redis key prefix (default "memdoctor"); tests use their own. */
  keyPrefix?: string;
}

/** Last line of defence: even a bug (a missing prompt file) ends as a note, never a failed diagnosis. */
async function guarded<T>(log: Logger, run: () => Promise<Outcome<T>>): Promise<Outcome<T>> {
  try {
    return await run();
  } catch (error) {
    const failure = asMemdoctorError(error);
    log.error({ code: failure.code, reason: failure.message }, 'model help failed unexpectedly');
    return { value: undefined, note: `model help failed: ${failure.message}` };
  }
}

/**
 * The LLM assist, or undefined when no model is configured (OPENAI_API_KEY unset): callers then
 * skip every model step and show the deterministic result alone.
 */
export function createLlmAssist(config: Config, options: AssistOptions = {}): LlmAssist | undefined {
  const settings = llmSettings(config);
  if (!settings) return undefined;
  const log = childFor(options.log ?? createLogger(config.LOG_LEVEL), 'llm', { model: settings.model });
  const target = redisTarget(config);
  const owned =
    !options.store && !options.redis && target
      ? connectCacheRedis(target, (error) => log.debug({ err: error }, 'redis connection error'))
      : undefined;
  const redis = options.redis ?? owned;
  const store =
    options.store ?? (redis ? new RedisLlmStore(redis, log, options.keyPrefix) : new MemoryLlmStore());
  const deps: AskDeps = { client: options.client ?? openAiClient(settings), store, settings, log };
  return {
    suggest: (request) => guarded(log, () => suggestPlaybook(deps, request)),
    explain: (request) => guarded(log, () => explainDiagnosis(deps, request)),
    incidentNote: (request) => guarded(log, () => draftIncident(deps, request)),
    async close() {
      if (owned) await owned.quit().catch(() => owned.disconnect());
    },
  };
}
