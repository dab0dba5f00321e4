import { afterEach, beforeEach, vi } from 'vitest';
import type { GlueTarget } from '../../src/connectors/glue-config.ts';
import { type AwsFake, TEST_CREDENTIALS } from './fakes/aws-fake.ts';
import { GLUE_REGION, glueFake } from './fakes/aws-systems.ts';
import { useFake } from './support.ts';

/** A glue target as connectors.yaml would give it, every service pointed at the fake. */
export function glueTargetFor(url: string, overrides: Partial<GlueTarget> = {}): GlueTarget {
  return {
    region: GLUE_REGION,
    endpoints: { glue: url, cloudwatch: url, logs: url },
    timeoutMs: 5_000,
    maxAttempts: 1,
    maxBytes: 8 * 1024 * 1024,
    logEvents: 200,
    ...overrides,
  };
}

/**
 * The SDK's default chain finds the test key in the environment, as it would a deployment's; no
 * profile, no ~/.aws file and no instance metadata can answer instead.
 */
export function useTestCredentials(
  keys: { accessKeyId: string; secretAccessKey: string } = TEST_CREDENTIALS,
): void {
  vi.stubEnv('AWS_ACCESS_KEY_ID', keys.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', keys.secretAccessKey);
  vi.stubEnv('AWS_SESSION_TOKEN', undefined);
  vi.stubEnv('AWS_PROFILE', undefined);
  vi.stubEnv('AWS_CONFIG_FILE', '/nonexistent/memdoctor-test/config');
  vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', '/nonexistent/memdoctor-test/credentials');
  vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
}

/** The same, with no key in the environment: nothing in the chain has credentials. */
export function useNoCredentials(): void {
  useTestCredentials();
  vi.stubEnv('AWS_ACCESS_KEY_ID', undefined);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', undefined);
}

/**
 * The fake AWS of a Glue job's run, started before each test of the enclosing describe with the test
 * key in the environment, and stopped after with the environment put back; a request the published
 * API does not allow fails the test.
 */
export function useGlueFake(): ReturnType<typeof useFake<AwsFake>> {
  beforeEach(() => useTestCredentials());
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  return useFake(glueFake);
}
