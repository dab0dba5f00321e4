import type { Finding } from '../facts.ts';
import type { Extractor, MessageFamily } from './types.ts';

// "jdk1.8.0_92", "java version \"1.8.0_151\"", "openjdk version \"11.0.2\"", "JRE (8.0_144-b01)", "jdk-17.0.2".
// Also hs_err's "(build 1.8.0_144-b01)" and RHEL/EMR paths such as java-1.8.0-openjdk-1.8.0_131.
const LEGACY = /(?:\bjdk|\bjre|version "?|\bbuild |openjdk-)1\.(\d)\.0_(\d{1,3})/i;
// The major version must end there: "JDK-8013267" is a bug id, not JDK 80.
const MODERN = /\b(?:jdk-?|openjdk version "|java version ")(\d{2})(?![\d])/i;

const FAMILIES: readonly MessageFamily[] = [
  {
    name: 'JDK 8 and older: 1.8.0_NNN in version banners, paths and hs_err',
    kind: 'jdk.version',
    source:
      'openjdk/jdk8u launcher (java -version banner), hotspot vmError.cpp (hs_err "JRE version: ... (8.0_144-b01) (build 1.8.0_144-b01)"); Linux package paths',
    versions: 'JDK 6-8',
    examples: [
      'java version "1.8.0_151"',
      '# JRE version: OpenJDK Runtime Environment (8.0_144-b01) (build 1.8.0_144-b01)',
      '/usr/lib/jvm/java-1.8.0-openjdk-1.8.0_131.x86_64/jre/bin/java',
      'JAVA_HOME=/opt/jdk1.8.0_92',
    ],
  },
  {
    name: 'JDK 9 and later: a two-digit major',
    kind: 'jdk.version',
    source: 'openjdk/jdk launcher (java -version: openjdk version "17.0.2"); JEP 223 version strings',
    versions: 'JDK 9+',
    examples: ['openjdk version "11.0.2" 2019-01-15', 'JAVA_HOME=/usr/lib/jvm/jdk-17.0.2'],
  },
  {
    name: 'JDK 8 before update 152 (MemberNameTable native memory leak, fixed by JDK-8013267)',
    kind: 'jdk.8-native-leak',
    source:
      'bugs.openjdk.org JDK-8013267 (MemberNameTable moved to the Java heap, in 8u152); shared/seeds Flink native-memory article',
    versions: 'JDK 8u0-8u151',
    examples: ['java version "1.8.0_131"'],
  },
];

/** The JDK version in use, flagging JDK 8 before 8u152 (its MemberNameTable leaks native memory; the fix moved the table into the heap, JDK-8013267). */
export const jdkVersion: Extractor = {
  id: 'jdk-version',
  description: 'JDK version from paths and version banners; JDK 8 before update 152 is flagged',
  triggers: ['jdk', 'jre', 'version "'],
  extract(line) {
    const findings: Finding[] = [];
    const legacy = LEGACY.exec(line);
    if (legacy) {
      const major = Number(legacy[1]);
      const update = Number(legacy[2]);
      findings.push({ kind: 'jdk.version', values: { major, update, version: `${major}u${update}` } });
      if (major === 8 && update < 152)
        findings.push({ kind: 'jdk.8-native-leak', values: { version: `8u${update}` } });
      return findings;
    }
    const modern = MODERN.exec(line);
    if (modern)
      findings.push({ kind: 'jdk.version', values: { major: Number(modern[1]), version: modern[1] ?? '' } });
    return findings;
  },
  families: FAMILIES,
  patterns: [LEGACY, MODERN],
};
