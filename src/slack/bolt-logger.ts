import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from 'pino';
import { childFor } from '../log.ts';
import { scrubSecrets } from './secrets.ts';

const PINO_TO_BOLT: Readonly<Record<string, LogLevel>> = {
  trace: LogLevel.DEBUG,
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warn: LogLevel.WARN,
  error: LogLevel.ERROR,
  fatal: LogLevel.ERROR,
  silent: LogLevel.ERROR,
};

function render(parts: readonly unknown[], secrets: readonly string[]): string {
  const text = parts
    .map((part) => {
      if (typeof part === 'string') return part;
      if (part instanceof Error) return part.stack ?? part.message;
      try {
        return JSON.stringify(part);
      } catch {
        return String(part);
      }
    })
    .join(' ');
  return scrubSecrets(text, secrets);
}

/**
 * Bolt's Logger interface on top of a pino child, so Bolt, the WebClient and memdoctor write one
 * NDJSON stream. Bolt logs free text that can quote request bodies, so every message is scrubbed of
 * tokens and of the given secret values before pino sees it.
 */
export function boltLogger(parent: Logger, secrets: readonly string[]): BoltLogger {
  const bolt = childFor(parent, 'bolt');
  let log = bolt;
  return {
    debug: (...msg: unknown[]) => log.debug(render(msg, secrets)),
    info: (...msg: unknown[]) => log.info(render(msg, secrets)),
    warn: (...msg: unknown[]) => log.warn(render(msg, secrets)),
    error: (...msg: unknown[]) => log.error(render(msg, secrets)),
    // Bolt sets its level from its own option; the pino root level is the one that decides.
    setLevel: () => undefined,
    getLevel: () => PINO_TO_BOLT[log.level] ?? LogLevel.INFO,
    setName: (name: string) => {
      log = childFor(bolt, name);
    },
  };
}
