// @ts-nocheck
import pino, { type DestinationStream, type Logger } from 'pino';

/** Paths that may hold secrets; pino replaces their values before a line is written. */
export const REDACT_PATHS = [
  'token',
  '*.token',
  'botToken',
  '*.botToken',
  'appToken',
  'signingSecret',
  '*.signingSecret',
  'apiKey',
  '*.apiKey',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'req.headers.authorization',
  'SLACK_BOT_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_APP_TOKEN',
  'OPENAI_API_KEY',
];

/** The one root logger; modules take `child({ module })` of it. NDJSON to stderr by default. */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  return pino(
    { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { app: 'memdoctor' } },
    destination ?? pino.destination(2),
  );
}
