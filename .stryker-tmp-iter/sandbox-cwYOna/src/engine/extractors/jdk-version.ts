// @ts-nocheck
import type { Finding } from '../facts.ts';
import type { Extractor } from './types.ts';

// "jdk1.8.0_92", "java version \"1.8.0_151\"", "openjdk version \"11.0.2\"", "JRE (8.0_144-b01)", "jdk-17.0.2".
// Also hs_err's "(build 1.8.0_144-b01)" and RHEL/EMR paths such as java-1.8.0-openjdk-1.8.0_131.
const LEGACY = /(?:\bjdk|\bjre|version "?|\bbuild |openjdk-)1\.(\d)\.0_(\d{1,3})/i;
// The major version must end there: "JDK-8164293" is a bug id, not JDK 81.
const MODERN = /\b(?:jdk-?|openjdk version "|java version ")(\d{2})(?![\d])/i;

/** The JDK version in use, flagging JDK 8 before 8u152 (a known native-memory leak, JDK-8164293). */
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
};
