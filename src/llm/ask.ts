import { createHash } from 'node:crypto';
import OpenAI from 'openai';
import { zodTextFormat } from 'openai/helpers/zod';
import type { Logger } from 'pino';
import { z } from 'zod';
import { LlmInvalidAnswerError, LlmUnavailableError, type MemdoctorError, messageOf } from '../errors.ts';
import type { Prompt } from './prompts.ts';
import { mergeReceipts, type RedactionReceipt, redact } from './redact.ts';
import type { LlmSettings } from './settings.ts';
import type { LlmStore } from './store.ts';

/** A model's answer, or no answer and a short note saying why (never an exception). */
export type Outcome<T> =
  | { value: T; note?: undefined; cached: boolean; receipt: RedactionReceipt }
  | { value: undefined; note: string };

/** What every model call needs. */
export interface AskDeps {
  client: OpenAI;
  store: LlmStore;
  settings: LlmSettings;
  log: Logger;
}

export interface AskRequest<S extends z.ZodType> {
  prompt: Prompt;
  schema: S;
  /** The json_schema name sent to the model. */
  schemaName: string;
  /** The user content; it is redacted here again whatever the caller did. */
  input: string;
  /** Rate limits count per workspace (Slack team id, or "cli"). */
  workspace: string;
  maxOutputTokens: number;
  /** What the caller already redacted from parts of `input`, so the logged receipt is complete. */
  redacted?: RedactionReceipt;
  /** Checks beyond the schema; returns why the answer must be dropped. Runs before caching. */
  check?: (value: z.infer<S>) => string | undefined;
}

const RATE_WINDOW_SECONDS = 3600;
/** Characters per token, on the low side: logs are full of digits and punctuation. */
const CHARS_PER_TOKEN = 3;
const CUT_MARK = '\n[… cut to fit the token budget]';

/** Characters of input that fit beside `instructions` in the token budget (estimated). */
export function inputCharBudget(instructions: string, maxInputTokens: number): number {
  return Math.max(0, (maxInputTokens - Math.ceil(instructions.length / CHARS_PER_TOKEN)) * CHARS_PER_TOKEN);
}

/** Cuts `input` at a line end so that prompt + input stays within the token budget. */
export function fitBudget(input: string, instructions: string, maxInputTokens: number): string {
  const budget = inputCharBudget(instructions, maxInputTokens);
  if (input.length <= budget) return input;
  const room = Math.max(0, budget - CUT_MARK.length);
  const end = input.lastIndexOf('\n', room);
  return `${input.slice(0, end > 0 ? end : room)}${CUT_MARK}`;
}

function cacheKey(model: string, request: AskRequest<z.ZodType>, input: string): string {
  const { prompt, schemaName } = request;
  return createHash('sha256')
    .update(JSON.stringify([prompt.name, prompt.version, model, schemaName, input]))
    .digest('hex');
}

/** Turns whatever the SDK threw into one of the two LLM errors, with a message a person can read. */
export function classifyFailure(error: unknown, timeoutMs: number): MemdoctorError {
  if (error instanceof z.ZodError || error instanceof SyntaxError)
    return new LlmInvalidAnswerError('it did not follow the expected answer schema', { cause: error });
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return new LlmUnavailableError(`no answer within ${Math.round(timeoutMs / 1000)} s`, { cause: error });
  if (error instanceof OpenAI.RateLimitError)
    return new LlmUnavailableError('the model server kept answering 429 (rate limited)', { cause: error });
  if (error instanceof OpenAI.APIConnectionError)
    return new LlmUnavailableError('cannot reach the model server', { cause: error });
  if (error instanceof OpenAI.APIError)
    return new LlmUnavailableError(`the model server answered HTTP ${error.status ?? '?'}`, { cause: error });
  const detail = messageOf(error);
  return new LlmUnavailableError(`unexpected failure (${detail})`, { cause: error });
}

async function cachedValue<S extends z.ZodType>(deps: AskDeps, schema: S, hash: string) {
  const raw = await deps.store.get(hash);
  if (raw === undefined) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? (parsed.data as z.infer<S>) : undefined;
  } catch {
    return undefined;
  }
}

async function callModel<S extends z.ZodType>(deps: AskDeps, request: AskRequest<S>, input: string) {
  const response = await deps.client.responses.parse({
    model: deps.settings.model,
    instructions: request.prompt.text,
    input: [{ role: 'user', content: input }],
    text: { format: zodTextFormat(request.schema, request.schemaName) },
    max_output_tokens: request.maxOutputTokens,
    // The provider need not keep the log excerpt once it has answered.
    store: false,
  });
  const parsed = response.output_parsed as z.infer<S> | null;
  if (parsed === null || parsed === undefined)
    throw new LlmInvalidAnswerError(`no structured answer (status ${response.status ?? 'unknown'})`);
  return { value: parsed, usage: response.usage };
}

/**
 * One bounded model call: redact, fit the token budget, answer from the cache when the same
 * request was answered before, count against the workspace's hourly limit, call, validate.
 * Every failure becomes `{ value: undefined, note }` and a log line; nothing is thrown.
 */
export async function ask<S extends z.ZodType>(
  deps: AskDeps,
  request: AskRequest<S>,
): Promise<Outcome<z.infer<S>>> {
  const log = deps.log.child({ prompt: request.prompt.name, promptVersion: request.prompt.version });
  try {
    const { text, receipt: own } = redact(request.input);
    const receipt = mergeReceipts({ ...request.redacted }, own);
    const input = fitBudget(text, request.prompt.text, deps.settings.maxInputTokens);
    const hash = cacheKey(deps.settings.model, request, input);
    const hit = await cachedValue(deps, request.schema, hash);
    if (hit !== undefined && request.check?.(hit) === undefined) {
      log.debug({ receipt, cached: true }, 'model answer from cache');
      return { value: hit, cached: true, receipt };
    }
    const count = await deps.store.hit(request.workspace, RATE_WINDOW_SECONDS);
    if (count > deps.settings.requestsPerHour) {
      const limit = deps.settings.requestsPerHour;
      throw new LlmUnavailableError(`this workspace reached its limit of ${limit} model requests per hour`);
    }
    const { value, usage } = await callModel(deps, request, input);
    const rejected = request.check?.(value);
    if (rejected !== undefined) throw new LlmInvalidAnswerError(rejected);
    await deps.store.set(hash, JSON.stringify(value), deps.settings.cacheTtlSeconds);
    log.debug({ receipt, cached: false, usage, inputChars: input.length }, 'model answered');
    return { value, cached: false, receipt };
  } catch (error) {
    const failure =
      error instanceof LlmInvalidAnswerError || error instanceof LlmUnavailableError
        ? error
        : classifyFailure(error, deps.settings.timeoutMs);
    log.warn(
      { code: failure.code, reason: failure.message, cause: describe(failure.cause) },
      'model answer dropped',
    );
    return { value: undefined, note: failure.message };
  }
}

function describe(cause: unknown): string | undefined {
  if (cause === undefined) return undefined;
  return cause instanceof Error
    ? `${cause.name}: ${cause.message}`.slice(0, 500)
    : String(cause).slice(0, 500);
}
