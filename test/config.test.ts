import { describe, expect, it } from 'vitest';
import {
  caseLimits,
  defaultDiagnoseThreads,
  defaultEngineThreads,
  enginePoolSettings,
  loadConfig,
  loadConfigLeniently,
} from '../src/config.ts';
import { ConfigInvalidError } from '../src/errors.ts';
import { configuredPlaybooks, playbooksDir } from '../src/setup/playbooks.ts';

describe('loadConfig', () => {
  it('refuses half the Slack settings, naming the missing one', () => {
    expect(() => loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1' })).toThrow(
      /SLACK_SIGNING_SECRET is not set, but SLACK_BOT_TOKEN is[\s\S]*→ at SLACK_BOT_TOKEN/,
    );
    expect(loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' }).SLACK_BOT_TOKEN).toBe(
      'xoxb-1',
    );
    expect(loadConfig({}).SLACK_BOT_TOKEN).toBeUndefined();
  });

  it.each([
    ['not a url', 'must be a URL such as redis://127.0.0.1:6379'],
    ['http://127.0.0.1:6379', 'must start with redis:// or rediss://'],
    ['redis://127.0.0.1:6379/cache', 'may only name a database number after the host'],
  ])('refuses REDIS_URL=%s', (url, message) => {
    expect(() => loadConfig({ REDIS_URL: url })).toThrow(message);
  });

  it('accepts a database number, and TLS', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/3' }).REDIS_URL).toBe('redis://127.0.0.1:6379/3');
    expect(loadConfig({ REDIS_URL: 'rediss://u:p@cache.example:6380' }).REDIS_URL).toContain('rediss://');
  });
});

describe('loadConfigLeniently (diagnose, playbooks)', () => {
  it('drops a half-set Slack variable and reports it, so a command still runs', () => {
    const { config, problem } = loadConfigLeniently({ SLACK_BOT_TOKEN: 'xoxb-1', OPENAI_MODEL: 'm' });
    expect(config.SLACK_BOT_TOKEN).toBeUndefined();
    expect(config.OPENAI_MODEL).toBe('m');
    expect(problem?.message).toContain('SLACK_SIGNING_SECRET is not set');
  });
});

describe('MEMDOCTOR_PLAYBOOKS_DIR, checked where playbooks are loaded', () => {
  it.each([
    ['/nonexistent/pb', 'there is no folder /nonexistent/pb'],
    ['package.json', 'package.json is a file, not a folder of playbooks'],
    ['src', 'src holds no playbook (expected '],
  ])('refuses %s, naming the variable and the path', (dir, message) => {
    expect(() => playbooksDir({ MEMDOCTOR_PLAYBOOKS_DIR: dir })).toThrow(ConfigInvalidError);
    expect(() => configuredPlaybooks({ MEMDOCTOR_PLAYBOOKS_DIR: dir })).toThrow(message);
    expect(() => configuredPlaybooks({ MEMDOCTOR_PLAYBOOKS_DIR: dir })).toThrow(
      '→ at MEMDOCTOR_PLAYBOOKS_DIR',
    );
  });

  it('takes a folder of playbooks, and the shipped one when unset', () => {
    expect(playbooksDir({ MEMDOCTOR_PLAYBOOKS_DIR: 'playbooks' })).toBe('playbooks');
    expect(configuredPlaybooks({}).length).toBeGreaterThan(5);
  });
});

describe('the Slack app diagnosis pool (MEMDOCTOR_ENGINE_*)', () => {
  it('defaults to the cores less one (at least 1), 32 waiting inputs and 60 s per input', () => {
    const config = loadConfig({});
    expect(config.MEMDOCTOR_ENGINE_THREADS).toBe(defaultEngineThreads());
    expect(enginePoolSettings(config)).toEqual({
      threads: defaultEngineThreads(),
      maxQueue: 32,
      budgetMs: 60_000,
    });
    expect([1, 2, 8].map((cores) => defaultEngineThreads(cores))).toEqual([1, 1, 7]);
  });

  it('reads a case’s limits, 8 inputs and 64 MiB by default', () => {
    expect(caseLimits(loadConfig({}))).toEqual({ maxInputs: 8, maxBytes: 64 * 1024 * 1024 });
    expect(
      caseLimits(loadConfig({ MEMDOCTOR_CASE_MAX_INPUTS: '3', MEMDOCTOR_CASE_MAX_BYTES: '1048576' })),
    ).toEqual({ maxInputs: 3, maxBytes: 1048576 });
  });

  it('takes whole numbers within range, empty meaning the default', () => {
    const config = loadConfig({
      MEMDOCTOR_ENGINE_THREADS: '3',
      MEMDOCTOR_ENGINE_QUEUE: '0',
      MEMDOCTOR_ENGINE_TIMEOUT_MS: ' 1500 ',
    });
    expect(enginePoolSettings(config)).toEqual({ threads: 3, maxQueue: 0, budgetMs: 1500 });
    expect(loadConfig({ MEMDOCTOR_ENGINE_QUEUE: '' }).MEMDOCTOR_ENGINE_QUEUE).toBe(32);
  });

  it('reads a large file for `diagnose` with one block thread where there is a second core', () => {
    expect(loadConfig({}).MEMDOCTOR_DIAGNOSE_THREADS).toBe(defaultDiagnoseThreads());
    expect(defaultDiagnoseThreads(1)).toBe(0);
    expect(defaultDiagnoseThreads(2)).toBe(1);
    expect(defaultDiagnoseThreads(64)).toBe(1);
    expect(loadConfig({ MEMDOCTOR_DIAGNOSE_THREADS: '0' }).MEMDOCTOR_DIAGNOSE_THREADS).toBe(0);
    expect(loadConfig({ MEMDOCTOR_DIAGNOSE_THREADS: '2' }).MEMDOCTOR_DIAGNOSE_THREADS).toBe(2);
  });

  it.each([
    ['MEMDOCTOR_ENGINE_THREADS', '0', 'must be a whole number from 1 to 64, not "0"'],
    ['MEMDOCTOR_ENGINE_THREADS', 'two', 'must be a whole number from 1 to 64, not "two"'],
    ['MEMDOCTOR_ENGINE_THREADS', '1.5', 'must be a whole number from 1 to 64, not "1.5"'],
    ['MEMDOCTOR_ENGINE_QUEUE', '-1', 'must be a whole number from 0 to 10000, not "-1"'],
    ['MEMDOCTOR_ENGINE_QUEUE', '1e3', 'must be a whole number from 0 to 10000, not "1e3"'],
    ['MEMDOCTOR_ENGINE_TIMEOUT_MS', '50', 'must be a whole number from 100 to 3600000, not "50"'],
    ['MEMDOCTOR_ENGINE_TIMEOUT_MS', '60s', 'must be a whole number from 100 to 3600000, not "60s"'],
    ['MEMDOCTOR_DIAGNOSE_THREADS', '65', 'must be a whole number from 0 to 64, not "65"'],
    ['MEMDOCTOR_CASE_MAX_INPUTS', '0', 'must be a whole number from 1 to 100, not "0"'],
    ['MEMDOCTOR_CASE_MAX_BYTES', '-5', 'Too small'],
  ])('refuses %s=%s, naming the variable and what is allowed', (name, value, message) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigInvalidError);
    expect(String((error as Error).message)).toContain(message);
    expect(String((error as Error).message)).toContain(`→ at ${name}`);
  });
});
