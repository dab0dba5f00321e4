import { describe, expect, it } from 'vitest';
import { flinkSlots } from '../../../src/engine/extractors/flink-slots.ts';
import { findingsOf, kindsOf } from './run-extractor.ts';

describe('flink-slots', () => {
  it.each([
    {
      line: 'Caused by: org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Slot request bulk is not fulfillable! Could not allocate the required slot within slot request timeout',
      findings: [{ kind: 'flink.no-slots', values: { variant: 'bulk-not-fulfillable' } }],
    },
    {
      line: 'org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not allocate all requires slots within timeout of 300000 ms.',
      findings: [
        { kind: 'flink.no-slots', values: { variant: 'timeout', timeoutMs: 300000 } },
        { kind: 'flink.slot-timeout', values: { timeoutMs: 300000 } },
      ],
    },
    {
      line: 'Caused by: org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: No pooled slot available and request to ResourceManager for new slot failed',
      findings: [{ kind: 'flink.no-slots', values: { variant: 'no-free-slot' } }],
    },
    {
      line: 'Caused by: java.util.concurrent.CompletionException: org.apache.flink.runtime.resourcemanager.exceptions.ResourceManagerException: Could not fulfill slot request 7f564f58302cdefe06b0bc4eba29e520.',
      findings: [{ kind: 'flink.no-slots', values: { variant: 'no-free-slot' } }],
    },
    {
      line: 'org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not acquire the minimum required resources.',
      findings: [{ kind: 'flink.no-slots', values: { variant: 'minimum-resources' } }],
    },
    {
      line: 'Pending slot request with ResourceProfile{taskHeapMemory=1.000gb (1073741824 bytes), managedMemory=128.000mb (134217728 bytes)} timed out',
      findings: [
        {
          kind: 'flink.resource-profile',
          values: {
            profile: 'taskHeapMemory=1.000gb (1073741824 bytes), managedMemory=128.000mb (134217728 bytes)',
          },
        },
      ],
    },
    {
      line: 'INFO  SlotPoolImpl - Number of registered TaskManagers: 0.',
      findings: [{ kind: 'flink.no-task-managers' }],
    },
  ])('$line', ({ line, findings }) => {
    expect(findingsOf(flinkSlots, line)).toEqual(findings);
  });

  it.each([
    'INFO  org.apache.flink.runtime.taskexecutor.slot.TaskSlotTableImpl - Free slot TaskSlot(index:0, state:ALLOCATED, resource profile: ResourceProfile{UNKNOWN})',
    'INFO  SlotPoolImpl - Number of registered TaskManagers: 10.',
    'Checkpoint 42 of job abc expired before completing.',
    'INFO  Received slot report from instance 8c6b0 with 4 free slots.',
  ])('finds no missing slots in %s', (line) => {
    expect(kindsOf(flinkSlots, line).filter((k) => k !== 'flink.resource-profile')).toEqual([]);
  });
});
