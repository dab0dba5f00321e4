// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.ts';
import { boltLogger } from '../../src/slack/bolt-logger.ts';
import { scrubSecrets } from '../../src/slack/secrets.ts';
import { LogSink } from './support/harness.ts';

describe('the Bolt logger adapter', () => {
  it('writes Bolt messages as pino JSON with their level', () => {
    const sink = new LogSink();
    const log = boltLogger(createLogger('debug', sink), []);
    log.warn('socket closed', { code: 1006 });
    log.setName('web-api:WebClient:0');
    log.debug('http request url: https://slack.com/api/chat.postMessage');
    expect(sink.lines.map((l) => [l.level, l.module, l.component, l.msg])).toEqual([
      [40, 'bolt', undefined, 'socket closed {"code":1006}'],
      [20, 'bolt', 'web-api:WebClient:0', 'http request url: https://slack.com/api/chat.postMessage'],
    ]);
  });

  it('scrubs tokens and secret values from free text', () => {
    const sink = new LogSink();
    const log = boltLogger(createLogger('debug', sink), ['my-signing-secret-123']);
    log.info('body: token=xoxb-123-456-abcDEF&x=1', 'secret my-signing-secret-123', {
      appToken: 'xapp-1-A1-2-ff',
    });
    expect(sink.raw).not.toMatch(/xoxb-123|xapp-1-A1|my-signing-secret-123/);
    expect(sink.raw).toContain('[redacted]');
  });

  it('leaves short secrets alone rather than shredding ordinary words', () => {
    expect(scrubSecrets('the abc of it', ['abc'])).toBe('the abc of it');
  });
});
