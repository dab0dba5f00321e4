// @ts-nocheck
import { applyRules, type LineRule } from './rules.ts';
import type { Extractor, MessageFamily } from './types.ts';

const RULES: readonly LineRule[] = [
  // Family: the Dataflow service lost a worker VM ("Root cause: The worker lost contact with the
  // service." / "Each time the worker eventually lost contact with the service."). Most often the VM
  // ran out of memory, but a preempted or recycled VM says the same: a weak signal.
  {
    re: /\bworker (?:eventually )?lost contact with the service\b/i,
    kind: 'dataflow.worker-lost',
    continue: true,
  },
  { re: /\bworker (?:eventually )?lost contact with the service\b/i, kind: 'platform.dataflow' },
];

const FAMILIES: readonly MessageFamily[] = [
  {
    name: 'Dataflow worker lost contact with the service',
    kind: 'dataflow.worker-lost',
    source:
      'Dataflow job messages, as quoted in googlegenomics/gcp-variant-transforms docs/troubleshooting.md and cloud.google.com/community/tutorials/dataflow-debug-oom-conditions',
    versions: 'Dataflow (Beam Java and Python, batch)',
    examples: [
      'Workflow failed. Causes: S03:ReadFromBigQuery/Read+ParseRows+Enrich failed., The job failed because a work item has failed 4 times. Root cause: The worker lost contact with the service.,',
      'A work item was attempted 4 times without success. Each time the worker eventually lost contact with the service. The work item was attempted on: ',
    ],
  },
  {
    name: 'the same message names Dataflow as the platform',
    kind: 'platform.dataflow',
    source: 'as above',
    versions: 'Dataflow',
    examples: ['      Root cause: The worker lost contact with the service.,'],
  },
];

/** Dataflow's own job messages about its workers (a lost worker VM). */
export const dataflowWorker: Extractor = {
  id: 'dataflow-worker',
  description: 'Dataflow job messages about lost worker VMs (weak memory evidence)',
  triggers: ['lost contact with the service'],
  extract: (line) => applyRules(RULES, line),
  families: FAMILIES,
};
