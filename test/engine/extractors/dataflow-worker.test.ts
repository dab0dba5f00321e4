import { describe, expect, it } from 'vitest';
import { dataflowWorker } from '../../../src/engine/extractors/dataflow-worker.ts';
import { findingsOf, kindsOf } from './run-extractor.ts';

describe('dataflow-worker', () => {
  it.each([
    // Templates t065 (Dataflow job message).
    '      Root cause: The worker lost contact with the service.,',
    // Quoted in googlegenomics/gcp-variant-transforms docs/troubleshooting.md (search index id 2398199992).
    'A work item was attempted 4 times without success. Each time the worker eventually lost contact with the service.',
  ])('a lost worker, which also names Dataflow: %s', (line) => {
    expect(kindsOf(dataflowWorker, line)).toEqual(['dataflow.worker-lost', 'platform.dataflow']);
  });

  it.each([
    [
      'Vertical Autoscaling has a desire to upscale memory, but we have hit the memory scaling limit of 16.0 GiB. Job will fail because we have upsized to maximum size, and the pipeline is still OOMing.',
      { mode: 'batch', limitGiB: 16 },
    ],
    [
      'Vertical Autoscaling has a desire to upscale memory, but we have hit the memory scaling limit of 26.0 GiB. This is only a problem if the pipeline continues to see memory throttling and/or OOMs.',
      { mode: 'streaming', limitGiB: 26 },
    ],
  ])("Dataflow Prime's vertical autoscaling at its limit ('dataflow.memory-limit'): %s", (line, values) => {
    expect(findingsOf(dataflowWorker, line)).toEqual([
      { kind: 'dataflow.memory-limit', values },
      { kind: 'platform.dataflow' },
    ]);
  });

  it("the id of the job the launcher submitted ('dataflow.job'), and nothing about memory", () => {
    // A public launcher log; the format is apache/beam apiclient.py's 'Created job with id: [%s]'.
    const line =
      'INFO:apache_beam.runners.dataflow.internal.apiclient:Created job with id: [2024-04-27_14_34_41-15368285970572376633]';
    expect(findingsOf(dataflowWorker, line)).toEqual([
      { kind: 'dataflow.job', values: { jobId: '2024-04-27_14_34_41-15368285970572376633' } },
    ]);
  });

  it.each([
    'INFO:apache_beam.runners.dataflow.internal.apiclient:Submitted job: 2024-04-27_14_34_41-15368285970572376633',
    'INFO Vertical Autoscaling upsized the worker pool memory to 8.0 GiB',
    'WARN The client lost contact with the service for 30 s, retrying',
    'The job failed because a work item has failed 4 times.',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(dataflowWorker, line)).toEqual([]);
  });
});
