// @ts-nocheck
import OpenAI from 'openai';
import type { Config } from '../config.ts';

/** Everything the assist needs from the configuration; absent when no key is set. */
export interface LlmSettings {
  apiKey: string;
  baseURL: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
  maxInputTokens: number;
  requestsPerHour: number;
  cacheTtlSeconds: number;
}

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** The model settings, or undefined when OPENAI_API_KEY is not set (memdoctor then never calls a model). */
export function llmSettings(config: Config): LlmSettings | undefined {
  if (config.OPENAI_API_KEY === undefined) return undefined;
  return {
    apiKey: config.OPENAI_API_KEY,
    baseURL: config.OPENAI_BASE_URL ?? DEFAULT_BASE_URL,
    model: config.OPENAI_MODEL,
    timeoutMs: config.OPENAI_TIMEOUT_MS,
    maxRetries: config.OPENAI_MAX_RETRIES,
    maxInputTokens: config.MEMDOCTOR_LLM_MAX_INPUT_TOKENS,
    requestsPerHour: config.MEMDOCTOR_LLM_REQUESTS_PER_HOUR,
    cacheTtlSeconds: config.MEMDOCTOR_LLM_CACHE_TTL_SECONDS,
  };
}

/**
 * The SDK client. Every option is explicit so the SDK never falls back to reading process.env
 * (config.ts is the only reader). The SDK retries connection errors, 408, 409, 429 and 5xx,
 * waiting as long as Retry-After says, and gives each attempt `timeoutMs`.
 */
export function openAiClient(settings: LlmSettings): OpenAI {
  return new OpenAI({
    apiKey: settings.apiKey,
    baseURL: settings.baseURL,
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    timeout: settings.timeoutMs,
    maxRetries: settings.maxRetries,
  });
}
