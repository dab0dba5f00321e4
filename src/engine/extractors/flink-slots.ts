import { applyRules, type LineRule } from './rules.ts';
import type { Extractor, MessageFamily } from './types.ts';

// Provenance of each rule is in FAMILIES below (file and versions per wording).
const RULES: readonly LineRule[] = [
  {
    re: /UnfulfillableSlotRequestException|resource profile .{0,300}is unfulfillable/i,
    kind: 'flink.no-slots',
    values: () => ({ variant: 'unfulfillable' }),
  },
  {
    re: /Slot request bulk is not fulfillable/i,
    kind: 'flink.no-slots',
    values: () => ({ variant: 'bulk-not-fulfillable' }),
  },
  {
    re: /Could not allocate (?:all |the |enough )?(?:requires?d? )?slots? within (?:slot request )?timeout(?: of (\d+) ms)?/i,
    kind: 'flink.no-slots',
    values: (m) => (m[1] ? { variant: 'timeout', timeoutMs: Number(m[1]) } : { variant: 'timeout' }),
  },
  {
    re: /No pooled slot available|Could not fulfill slot request|not enough free slots|Could not acquire the minimum required resources/i,
    kind: 'flink.no-slots',
    values: (m) => ({ variant: /minimum required/i.test(m[0]) ? 'minimum-resources' : 'no-free-slot' }),
  },
  // The slot pool's own timeout, as it appears in stack frames when the message itself was cut off.
  {
    re: /timeoutPendingSlotRequest|PendingRequest.{0,40}timed out|slot request .{0,40}timed out/i,
    kind: 'flink.no-slots',
    values: () => ({ variant: 'timeout' }),
  },
  { re: /NoResourceAvailableException/, kind: 'flink.no-slots', values: () => ({ variant: 'no-resource' }) },
];

const TIMEOUT =
  /within (?:slot request )?timeout of (\d{1,12}) ?(?:ms|MILLISECONDS)|after (\d{1,12}) ?ms timeout|Timeout has occurred: (\d{1,12}) ?(?:ms|MILLISECONDS)/i;
const PROFILE = /ResourceProfile\{([^}]{1,400})\}/;
const NO_TASK_MANAGERS =
  /Number of (?:registered TaskManagers|instances)\s?[:=]\s?0\b|Total number of slots\s?[:=]\s?0\b|no TaskManagers? (?:registered|available)/i;

const FLINK = 'apache/flink flink-runtime/src/main/java/org/apache/flink/runtime';

const FAMILIES: readonly MessageFamily[] = [
  {
    name: 'legacy scheduler: not enough free slots',
    kind: 'flink.no-slots',
    source: `${FLINK}/jobmanager/scheduler/NoResourceAvailableException.java (BASE_MESSAGE) and Scheduler.java`,
    versions: 'Flink 0.x-1.4 (legacy scheduler); the class keeps the message later',
    examples: [
      'org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Not enough free slots available to run the job. You can decrease the operator parallelism or increase the number of slots per TaskManager in the configuration. Task to schedule: < Attempt #0 (Source: mysqlreader (3/4)) @ (unassigned) - [SCHEDULED] >',
    ],
  },
  {
    name: 'eager scheduling: slots not all allocated in time',
    kind: 'flink.no-slots',
    source: `${FLINK}/executiongraph/ExecutionGraph.java (scheduleEager) / SchedulingUtils.java`,
    versions: 'Flink 1.5-1.9 (the "requires" typo is in the source)',
    examples: [
      'org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not allocate all requires slots within timeout of 300000 ms. Slots required: 2, slots allocated: 0',
    ],
  },
  {
    name: 'slot pool: no pooled slot and ResourceManager request failed',
    kind: 'flink.no-slots',
    source: `${FLINK}/jobmaster/slotpool/SlotPool.java (SlotPoolImpl from 1.8) and resourcemanager/ResourceManager.java (requestSlot)`,
    versions: 'Flink 1.5-1.9',
    examples: [
      'Caused by: org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: No pooled slot available and request to ResourceManager for new slot failed',
      'Caused by: java.util.concurrent.CompletionException: org.apache.flink.runtime.resourcemanager.exceptions.ResourceManagerException: Could not fulfill slot request 7f564f58302cdefe06b0bc4eba29e520.',
    ],
  },
  {
    name: 'slot pool: pending request timed out',
    kind: 'flink.no-slots',
    source: `${FLINK}/jobmaster/slotpool/SlotPoolImpl.java (timeoutPendingSlotRequest)`,
    versions: 'Flink 1.5-1.12',
    examples: [
      'Caused by: java.util.concurrent.TimeoutException: Pending slot request timed out in SlotPool.',
    ],
  },
  {
    name: 'default scheduler: required slot not allocated within slot request timeout',
    kind: 'flink.no-slots',
    source: `${FLINK}/scheduler/DefaultScheduler.java (maybeWrapWithNoResourceAvailableException)`,
    versions: 'Flink 1.10-1.11',
    examples: [
      'org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not allocate the required slot within slot request timeout. Please make sure that the cluster has enough resources.',
    ],
  },
  {
    name: 'ResourceManager: the requested resource profile is unfulfillable',
    kind: 'flink.no-slots',
    source: `${FLINK}/resourcemanager/exceptions/UnfulfillableSlotRequestException.java (SlotManagerImpl)`,
    versions: 'Flink 1.10-1.12 (fine-grained ResourceProfile requests)',
    examples: [
      'Caused by: org.apache.flink.runtime.resourcemanager.exceptions.UnfulfillableSlotRequestException: Could not fulfill slot request 0a8b7c2e1f3d4a5b6c7d8e9f0a1b2c3d. Requested resource profile (ResourceProfile{cpuCores=1.0, taskHeapMemory=2.000gb (2147483648 bytes), taskOffHeapMemory=0 bytes, managedMemory=1.000gb (1073741824 bytes), networkMemory=128.000mb (134217728 bytes)}) is unfulfillable.',
    ],
  },
  {
    name: 'bulk slot request not fulfillable',
    kind: 'flink.no-slots',
    source: `${FLINK}/jobmaster/slotpool/PhysicalSlotRequestBulkCheckerImpl.java`,
    versions: 'Flink 1.12+',
    examples: [
      'Caused by: org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Slot request bulk is not fulfillable! Could not allocate the required slot within slot request timeout',
    ],
  },
  {
    name: 'declarative slot pool / adaptive scheduler: minimum resources not acquired',
    kind: 'flink.no-slots',
    source: `${FLINK}/jobmaster/slotpool/DeclarativeSlotPoolBridge.java (failPendingRequests); scheduler/adaptive`,
    versions: 'Flink 1.13+',
    examples: [
      'org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not acquire the minimum required resources.',
    ],
  },
  {
    name: 'the slot request timeout it names',
    kind: 'flink.slot-timeout',
    source: `${FLINK}/executiongraph/ExecutionGraph.java; flink-core org/apache/flink/util/concurrent/FutureUtils.java (orTimeout)`,
    versions: 'Flink 1.5+',
    examples: [
      'NoResourceAvailableException: Could not allocate all requires slots within timeout of 300000 ms. Slots required: 8, slots allocated: 4',
      'Caused by: java.util.concurrent.TimeoutException: Timeout has occurred: 300000 ms',
    ],
  },
  {
    name: 'the resource profile a request carried',
    kind: 'flink.resource-profile',
    source:
      'apache/flink flink-core/src/main/java/org/apache/flink/api/common/resources + flink-runtime clusterframework/types/ResourceProfile.java (toString)',
    versions: 'Flink 1.10+ (memory sizes in the profile)',
    examples: [
      'Pending slot request with ResourceProfile{taskHeapMemory=1.000gb (1073741824 bytes), managedMemory=128.000mb (134217728 bytes)} timed out',
    ],
  },
  {
    name: 'no TaskManager registered',
    kind: 'flink.no-task-managers',
    source: `${FLINK}/jobmanager/scheduler/Scheduler.java ("Resources available to scheduler: Number of instances=...")`,
    versions: 'Flink 0.x-1.4 (legacy Scheduler)',
    examples: [
      'Resources available to scheduler: Number of instances=0, total number of slots=0, available slots=0',
    ],
  },
];

/** Flink failing to get slots: NoResourceAvailableException variants, timeouts, ResourceProfiles. */
export const flinkSlots: Extractor = {
  id: 'flink-slots',
  description:
    'Flink slot allocation failures (NoResourceAvailableException, bulk not fulfillable, timeouts) and ResourceProfiles',
  triggers: [
    'slot',
    'noresourceavailable',
    'resourceprofile',
    'minimum required resources',
    'taskmanagers',
    'instances',
    'unfulfillable',
    'pendingrequest',
    'timeout has occurred',
  ],
  extract(line) {
    const findings = applyRules(RULES, line);
    const timeout = TIMEOUT.exec(line);
    if (timeout)
      findings.push({
        kind: 'flink.slot-timeout',
        values: { timeoutMs: Number(timeout[1] ?? timeout[2] ?? timeout[3]) },
      });
    const profile = PROFILE.exec(line);
    if (profile) findings.push({ kind: 'flink.resource-profile', values: { profile: profile[1] ?? '' } });
    if (NO_TASK_MANAGERS.test(line)) findings.push({ kind: 'flink.no-task-managers' });
    return findings;
  },
  families: FAMILIES,
  patterns: [...RULES.map((rule) => rule.re), TIMEOUT, PROFILE, NO_TASK_MANAGERS],
};
