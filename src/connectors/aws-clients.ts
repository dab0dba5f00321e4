import type { GlueService, GlueTarget } from './glue-config.ts';

/**
 * The settings every AWS SDK client of the Glue connector is built with. No credentials are passed:
 * the SDK takes them from its default chain, or from the named profile. The whole call's deadline is
 * an abort signal (aws-call.ts); the connection gets the same bound so a dead endpoint fails fast.
 */
export function awsClientConfig(target: GlueTarget, service: GlueService) {
  const endpoint = target.endpoints[service];
  return {
    region: target.region,
    maxAttempts: target.maxAttempts,
    requestHandler: { connectionTimeout: target.timeoutMs },
    ...(endpoint ? { endpoint } : {}),
    ...(target.profile ? { profile: target.profile } : {}),
  };
}

/** A word for a POSIX shell, quoted when it needs to be (job names may hold spaces). */
export function shellQuote(word: string): string {
  return /^[\w./:@-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
