import { BoundedAwsHandler } from './aws-handler.ts';
import type { GlueService, GlueTarget } from './glue-config.ts';

/**
 * The settings every AWS SDK client of the Glue connector is built with. No credentials are passed:
 * the SDK takes them from its default chain, or from the named profile. Every answer is read by
 * BoundedAwsHandler (the fetch discipline: byte cap, the answer's deadline, no redirect, no HTML).
 */
export function awsClientConfig(target: GlueTarget, service: GlueService) {
  const endpoint = target.endpoints[service];
  return {
    region: target.region,
    maxAttempts: target.maxAttempts,
    requestHandler: new BoundedAwsHandler({ maxBytes: target.maxBytes, timeoutMs: target.timeoutMs }),
    ...(endpoint ? { endpoint } : {}),
    ...(target.profile ? { profile: target.profile } : {}),
  };
}

/** A word for a POSIX shell, quoted when it needs to be (job names may hold spaces). */
export function shellQuote(word: string): string {
  return /^[\w./:@-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
