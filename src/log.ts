import pino, { type Bindings, type DestinationStream, type Logger } from 'pino';

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

/** The keys that name a part of the program, outermost first. */
const PART_KEYS = ['module', 'component', 'part'] as const;

/**
 * A child logger for a part of the program, named by the first of `module`, `component`, `part`
 * that its parent does not bind yet. pino writes a child's bindings after its parent's without
 * merging them, so `child({ module })` under a logger that has one repeats the key on every line
 * (`"module":"slack","module":"bolt"`), which many log tools reject or read as the first value.
 */
export function childFor(parent: Logger, name: string, bindings: Bindings = {}): Logger {
  const bound = parent.bindings();
  const key = PART_KEYS.find((k) => !(k in bound) && !(k in bindings));
  return parent.child(key ? { [key]: name, ...bindings } : bindings);
}
