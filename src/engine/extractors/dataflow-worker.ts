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
  // Family: Dataflow Prime's vertical autoscaling wanted more memory than its limit allows. Batch says
  // the job will fail (it still runs out of memory at the largest size); streaming says it is only a
  // problem if memory throttling or OOMs go on.
  {
    re: /Vertical Autoscaling has a desire to upscale memory, but we have hit the memory scaling limit(?: of (\d{1,6}(?:\.\d{1,3})?) ?GiB)?/i,
    kind: 'dataflow.memory-limit',
    values: (m) => ({
      mode: /still OOMing|Job will fail/i.test(m.input) ? 'batch' : 'streaming',
      ...(m[1] ? { limitGiB: Number(m[1]) } : {}),
    }),
    continue: true,
  },
  { re: /Vertical Autoscaling has a desire to upscale memory/i, kind: 'platform.dataflow' },
  // Family: the job id Beam's DataflowRunner logs when it submits the job, so a connector can fetch
  // the job and its messages without asking for the id. It says nothing about memory.
  {
    re: /Created job with id: \[(\d{4}-\d{2}-\d{2}_\d{2}_\d{2}_\d{2}-\d{1,20})\]/,
    kind: 'dataflow.job',
    values: (m) => ({ jobId: m[1] ?? '' }),
  },
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
  {
    name: 'Dataflow Prime vertical autoscaling at its memory limit',
    kind: 'dataflow.memory-limit',
    source:
      'cloud.google.com/dataflow/docs/vertical-autoscaling (Monitor Vertical Autoscaling: the job log messages)',
    versions: 'Dataflow Prime (streaming by default; batch with enable_batch_vmr)',
    examples: [
      'Vertical Autoscaling has a desire to upscale memory, but we have hit the memory scaling limit of 16.0 GiB. Job will fail because we have upsized to maximum size, and the pipeline is still OOMing.',
      'Vertical Autoscaling has a desire to upscale memory, but we have hit the memory scaling limit of 26.0 GiB. This is only a problem if the pipeline continues to see memory throttling and/or OOMs.',
    ],
  },
  {
    name: 'vertical autoscaling names Dataflow as the platform',
    kind: 'platform.dataflow',
    source: 'as above',
    versions: 'Dataflow Prime',
    examples: [
      'Vertical Autoscaling has a desire to upscale memory, but we have hit the memory scaling limit of 16.0 GiB.',
    ],
  },
  {
    name: 'the id of the job the DataflowRunner submitted',
    kind: 'dataflow.job',
    source:
      "apache/beam sdks/python/apache_beam/runners/dataflow/internal/apiclient.py (_LOGGER.info('Created job with id: [%s]', response.id)); the example as a public launcher log printed it",
    versions: 'Beam Python 2.x on Dataflow',
    examples: [
      'INFO:apache_beam.runners.dataflow.internal.apiclient:Created job with id: [2024-04-27_14_34_41-15368285970572376633]',
    ],
  },
];

/** Dataflow's own job messages about its workers (a lost worker VM), and the id of the job submitted. */
export const dataflowWorker: Extractor = {
  id: 'dataflow-worker',
  description:
    'Dataflow job messages: lost worker VMs (weak memory evidence), vertical autoscaling at its memory limit; the id of a submitted job',
  triggers: ['lost contact with the service', 'vertical autoscaling', 'created job with id'],
  extract: (line) => applyRules(RULES, line),
  families: FAMILIES,
  patterns: RULES.map((rule) => rule.re),
};
