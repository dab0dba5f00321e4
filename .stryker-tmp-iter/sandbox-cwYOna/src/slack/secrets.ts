/** Slack token shapes: bot, user, app-level, config and refresh tokens. */
// @ts-nocheck

const TOKEN_PATTERN = /\b(?:xox[abeoprs]|xapp)-[A-Za-z0-9-]+/g;

/**
 * Removes Slack tokens and the given secret values from a string. pino's `redact` only sees object
 * paths; Bolt and the WebClient log free text, so that text is scrubbed before it reaches pino.
 */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(TOKEN_PATTERN, '[redacted]');
  for (const secret of secrets) if (secret.length >= 8) out = out.split(secret).join('[redacted]');
  return out;
}
