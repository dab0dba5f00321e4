import { describe, expect, it } from 'vitest';
import { loadConfig, loadConfigLeniently } from '../src/config.ts';
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
