import { describe, expect, it } from 'vitest';
import { runtimeVersions } from '../../../src/engine/extractors/runtime-versions.ts';
import { findingsOf } from './run-extractor.ts';

describe('runtime-versions', () => {
  // Real TaskManager banners posted on GitHub (search index file ids 23128174579, 19201025513, 21644659454).
  it.each([
    [
      '2022-05-26 14:14:23,739 INFO  org.apache.flink.runtime.taskexecutor.TaskManagerRunner      [] -  Starting TaskManager (Version: 1.14.4, Scala: 2.11, Rev:895c609, Date:2022-02-25T11:57:14+01:00)',
      '1.14.4',
    ],
    [
      '2020-02-28 00:03:44,843 INFO  org.apache.flink.runtime.taskexecutor.TaskManagerRunner       -  Starting TaskManager (Version: 1.10.0, Rev:aa4eb8f, Date:07.02.2020 @ 19:18:19 CET)',
      '1.10.0',
    ],
    [
      '2025-03-26 11:50:40,548 INFO  org.apache.flink.runtime.taskexecutor.TaskManagerRunner      [] -  Starting TaskManager (Version: 2.0.0, Scala: 2.12, Rev:cc017da, Date:2025-03-10T07:29:37+01:00)',
      '2.0.0',
    ],
  ])('reads the Flink version from %s', (line, version) => {
    expect(findingsOf(runtimeVersions, line)).toEqual([{ kind: 'flink.version', values: { version } }]);
  });

  // Lines from apache/beam#28246: an SDK image tag and a pinned requirement.
  it('flags a Beam Python release inside a known leak range', () => {
    expect(
      findingsOf(
        runtimeVersions,
        'docker run --rm -it --entrypoint=/bin/bash apache/beam_python3.9_sdk:2.50.0',
      ),
    ).toEqual([
      { kind: 'beam.version', values: { version: '2.50.0' } },
      { kind: 'beam.known-leak', values: { version: '2.50.0', issue: 'apache/beam#28246', fixed: '2.52.0' } },
    ]);
    expect(findingsOf(runtimeVersions, 'apache-beam[gcp]==2.70.1')).toContainEqual({
      kind: 'beam.known-leak',
      values: { version: '2.70.1', issue: 'apache/beam#39406', fixed: '2.76.0' },
    });
  });

  it.each([
    'apache-beam==2.46.0',
    'apache-beam==2.52.0',
    'Successfully installed apache-beam-2.66.0',
    'apache-beam==2.76.0',
  ])('does not flag %s, outside both ranges', (line) => {
    expect(findingsOf(runtimeVersions, line).map((f) => f.kind)).toEqual(['beam.version']);
  });

  it.each([
    'Starting the server (version: abc)',
    'see https://github.com/apache/beam/issues/28246',
    'java version "1.8.0_92"',
  ])('finds nothing in %s', (line) => {
    expect(findingsOf(runtimeVersions, line)).toEqual([]);
  });
});
