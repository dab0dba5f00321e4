import { applyRules, type LineRule } from './rules.ts';
import type { Extractor } from './types.ts';

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

const TIMEOUT = /within (?:slot request )?timeout of (\d+) ms|after (\d+) ?ms timeout/i;
const PROFILE = /ResourceProfile\{([^}]{1,400})\}/;
const NO_TASK_MANAGERS =
  /Number of (?:registered TaskManagers|instances)\s?[:=]\s?0\b|Total number of slots\s?[:=]\s?0\b|no TaskManagers? (?:registered|available)/i;

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
  ],
  extract(line) {
    const findings = applyRules(RULES, line);
    const timeout = TIMEOUT.exec(line);
    if (timeout)
      findings.push({ kind: 'flink.slot-timeout', values: { timeoutMs: Number(timeout[1] ?? timeout[2]) } });
    const profile = PROFILE.exec(line);
    if (profile) findings.push({ kind: 'flink.resource-profile', values: { profile: profile[1] ?? '' } });
    if (NO_TASK_MANAGERS.test(line)) findings.push({ kind: 'flink.no-task-managers' });
    return findings;
  },
};
