// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { ConfigInvalidError } from '../../src/errors.ts';
import { llmSettings } from '../../src/llm/settings.ts';

describe('llmSettings', () => {
  it('is undefined without a key, whatever else is set', () => {
    expect(
      llmSettings(loadConfig({ OPENAI_MODEL: 'm', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' })),
    ).toBeUndefined();
    expect(llmSettings(loadConfig({ OPENAI_API_KEY: '  ' }))).toBeUndefined();
  });

  it('reads every knob, with defaults', () => {
    expect(llmSettings(loadConfig({ OPENAI_API_KEY: 'sk-x' }))).toEqual({
      apiKey: 'sk-x',
      baseURL: 'https://api.openai.com/v1',
      model: 'gpt-4.1-mini',
      timeoutMs: 20_000,
      maxRetries: 2,
      maxInputTokens: 4000,
      requestsPerHour: 30,
      cacheTtlSeconds: 86_400,
    });
    const custom = llmSettings(
      loadConfig({
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: 'http://llm.internal:8000/v1',
        OPENAI_MODEL: 'local-model',
        OPENAI_TIMEOUT_MS: '5000',
        OPENAI_MAX_RETRIES: '0',
        MEMDOCTOR_LLM_MAX_INPUT_TOKENS: '2000',
        MEMDOCTOR_LLM_REQUESTS_PER_HOUR: '5',
        MEMDOCTOR_LLM_CACHE_TTL_SECONDS: '60',
      }),
    );
    expect(custom).toMatchObject({ baseURL: 'http://llm.internal:8000/v1', timeoutMs: 5000, maxRetries: 0 });
    expect(custom).toMatchObject({ maxInputTokens: 2000, requestsPerHour: 5, cacheTtlSeconds: 60 });
  });

  it('names the variable when a value is wrong', () => {
    expect(() => loadConfig({ OPENAI_TIMEOUT_MS: 'soon' })).toThrow(ConfigInvalidError);
    expect(() => loadConfig({ OPENAI_MAX_RETRIES: '9' })).toThrow(/OPENAI_MAX_RETRIES/);
  });
});
