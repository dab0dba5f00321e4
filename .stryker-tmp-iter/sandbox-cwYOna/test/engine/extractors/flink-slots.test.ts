// @ts-nocheck
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
    {
      // Legacy Scheduler, Flink 0.x-1.4 (NoResourceAvailableException.BASE_MESSAGE + scheduler state).
      line: 'org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Not enough free slots available to run the job. You can decrease the operator parallelism or increase the number of slots per TaskManager in the configuration. Task to schedule: < Attempt #0 (Source: mysqlreader (3/4)) @ (unassigned) - [SCHEDULED] >. Resources available to scheduler: Number of instances=0, total number of slots=0, available slots=0',
      findings: [
        { kind: 'flink.no-slots', values: { variant: 'no-free-slot' } },
        { kind: 'flink.no-task-managers' },
      ],
    },
    {
      // SlotPoolImpl.timeoutPendingSlotRequest, Flink 1.5-1.12.
      line: 'Caused by: java.util.concurrent.TimeoutException: Pending slot request timed out in SlotPool.',
      findings: [{ kind: 'flink.no-slots', values: { variant: 'timeout' } }],
    },
    {
      // DefaultScheduler, Flink 1.10-1.11 (templates t038).
      line: 'org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not allocate the required slot within slot request timeout. Please make sure that the cluster has enough resources.',
      findings: [{ kind: 'flink.no-slots', values: { variant: 'timeout' } }],
    },
  ])('$line', ({ line, findings }) => {
    expect(findingsOf(flinkSlots, line)).toEqual(findings);
  });

  it('reads the timeout behind a slot request that timed out', () => {
    expect(
      findingsOf(
        flinkSlots,
        'Caused by: java.util.concurrent.TimeoutException: Timeout has occurred: 300000 ms',
      ),
    ).toEqual([{ kind: 'flink.slot-timeout', values: { timeoutMs: 300000 } }]);
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
