import type { Finding } from '../facts.ts';
import type { Extractor, MessageFamily } from './types.ts';

// Flink's EnvironmentInformation banner: " Starting TaskManager (Version: 1.14.4, Scala: 2.11, Rev:...)",
// " Starting TaskManager (Version: 1.10.0, Rev:aa4eb8f, ...)", and the same for the JobManager entrypoints.
const FLINK_BANNER = /\bStarting [A-Za-z]{2,60} \(Version: (\d{1,2}\.\d{1,2}(?:\.\d{1,3})?)[,)]/;
// pip and image tags: "apache-beam==2.50.0", "apache-beam[gcp]==2.50.0", "apache_beam-2.50.0",
// "Successfully installed apache-beam-2.50.0", "apache/beam_python3.10_sdk:2.50.0".
const BEAM_PIN = /\bapache[-_]beam(?:\[[\w,]{1,60}\])?(?:==|-)(\d{1,2}\.\d{1,3}\.\d{1,3})\b/i;
const BEAM_IMAGE = /\bbeam_python3\.\d{1,2}_sdk:(\d{1,2}\.\d{1,3}\.\d{1,3})\b/;

/**
 * Beam Python releases with a known memory leak, from the Beam repository: #28246 (2.47.0-2.51.0,
 * leaking protobuf 4.21-4.24, "Fixed a memory leak" in the 2.52.0 section of CHANGES.md) and
 * #39406 (2.67.0-2.75.0, bundle processors of failed instructions kept on the Python heap, fixed
 * in 2.76.0 per the issue).
 */
export const BEAM_LEAKS = [
  { issue: 'apache/beam#28246', from: [2, 47, 0], to: [2, 51, 0], fixed: '2.52.0' },
  { issue: 'apache/beam#39406', from: [2, 67, 0], to: [2, 75, 0], fixed: '2.76.0' },
] as const;

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

/** beam.version, and beam.known-leak when the release is one of BEAM_LEAKS (also read from a Dataflow job's SDK version). */
export function beamFindings(version: string): Finding[] {
  const v = version.split('.').map(Number);
  const findings: Finding[] = [{ kind: 'beam.version', values: { version } }];
  for (const leak of BEAM_LEAKS)
    if (compare(v, leak.from) >= 0 && compare(v, leak.to) <= 0)
      findings.push({ kind: 'beam.known-leak', values: { version, issue: leak.issue, fixed: leak.fixed } });
  return findings;
}

const families: MessageFamily[] = [
  {
    name: 'Flink start-up banner',
    kind: 'flink.version',
    source: 'apache/flink EnvironmentInformation#logEnvironmentInfo',
    versions: 'Flink 1.x-2.x',
    examples: [
      '2022-05-26 14:14:23,739 INFO  org.apache.flink.runtime.taskexecutor.TaskManagerRunner      [] -  Starting TaskManager (Version: 1.14.4, Scala: 2.11, Rev:895c609, Date:2022-02-25T11:57:14+01:00)',
    ],
  },
  {
    name: 'Beam Python SDK version (pip pin or SDK image)',
    kind: 'beam.version',
    source: 'pip requirement syntax; Beam SDK container images apache/beam_python3.X_sdk:VERSION',
    versions: 'Beam Python 2.x',
    examples: [
      'docker run --rm -it --entrypoint=/bin/bash apache/beam_python3.9_sdk:2.50.0',
      'Successfully installed apache-beam-2.50.0',
      'apache-beam[gcp]==2.50.0',
    ],
  },
  {
    name: 'Beam Python release with a known leak',
    kind: 'beam.known-leak',
    source: 'apache/beam CHANGES.md (2.52.0: "Fixed a memory leak", #28246) and apache/beam#39406',
    versions: 'Beam Python 2.47.0-2.51.0, 2.67.0-2.75.0',
    examples: ['FROM apache/beam_python3.10_sdk:2.47.0'],
  },
];

/** The Flink and Beam Python versions a log shows, and Beam releases with a known leak. */
export const runtimeVersions: Extractor = {
  id: 'runtime-versions',
  description:
    "Flink's start-up banner version; Beam Python version from pip pins and SDK images (known-leak releases flagged)",
  triggers: ['(version: ', 'apache-beam', 'apache_beam-', '_sdk:'],
  families,
  patterns: [FLINK_BANNER, BEAM_PIN, BEAM_IMAGE],
  extract(line) {
    const flink = FLINK_BANNER.exec(line);
    if (flink) return [{ kind: 'flink.version', values: { version: flink[1] ?? '' } }];
    const beam = BEAM_PIN.exec(line) ?? BEAM_IMAGE.exec(line);
    return beam?.[1] ? beamFindings(beam[1]) : [];
  },
};
