import { describe, expect, it } from 'vitest';
import type { ConnectorsConfig } from '../../src/connectors/config.ts';
import { checkIdProblem } from '../../src/diagnosis/check-ids.ts';

// Only what the id checks read: which connectors are configured, and Kubernetes' namespaces.
const connectors = {
  kubernetes: { namespace: 'default', namespaces: ['streaming'] },
  glue: { region: 'us-west-2' },
  dataflow: { project: 'acme', location: 'europe-west1' },
  spark: { url: 'http://history:18080' },
} as unknown as ConnectorsConfig;

describe('checkIdProblem: an id from elsewhere passes the typed id checks before it is queued', () => {
  it('keeps ids each connector would fetch', () => {
    expect(checkIdProblem('kubernetes', 'streaming/flink-taskmanager-1-3', connectors)).toBeUndefined();
    expect(
      checkIdProblem(
        'glue',
        'MyJob/jr_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
        connectors,
      ),
    ).toBeUndefined();
    expect(
      checkIdProblem('dataflow', '2024-01-15_09_12_44-12345678901234567890', connectors),
    ).toBeUndefined();
    expect(checkIdProblem('spark', 'application_1523494505172_1552404', connectors)).toBeUndefined();
  });

  it('refuses a namespace the connector may not read, and a path in disguise', () => {
    expect(checkIdProblem('kubernetes', 'kube-system/etcd-0', connectors)).toMatch(/namespace "kube-system"/);
    expect(checkIdProblem('kubernetes', 'streaming/../secrets', connectors)).toMatch(/is not a pod/);
    expect(checkIdProblem('spark', '../../api/v1/allexecutors', connectors)).toMatch(/is not a appId/);
    expect(checkIdProblem('glue', 'MyJob/not-a-run', connectors)).toMatch(/is not a job run id/);
    expect(checkIdProblem('glue', 'MyJob', connectors)).toMatch(/needs the job name and the run id/);
  });

  it('names a connector connectors.yaml does not configure', () => {
    expect(checkIdProblem('yarn', 'application_1_1', connectors)).toBe(
      'yarn is not configured in connectors.yaml.',
    );
  });
});
