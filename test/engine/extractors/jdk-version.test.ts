import { describe, expect, it } from 'vitest';
import { jdkVersion } from '../../../src/engine/extractors/jdk-version.ts';
import { findingsOf } from './run-extractor.ts';

describe('jdk-version', () => {
  it.each([
    {
      line: '|- 4511 4505 (java) 459 18 /usr/local/jdk1.8.0_92/bin/java -Xmx424M -Dlog.file=jobmanager.log',
      findings: [
        { kind: 'jdk.version', values: { major: 8, update: 92, version: '8u92' } },
        { kind: 'jdk.8-native-leak', values: { version: '8u92' } },
      ],
    },
    {
      line: 'java version "1.8.0_151"',
      findings: [
        { kind: 'jdk.version', values: { major: 8, update: 151, version: '8u151' } },
        { kind: 'jdk.8-native-leak', values: { version: '8u151' } },
      ],
    },
    {
      // 8u152 carries the fix: no leak flag.
      line: 'java version "1.8.0_152"',
      findings: [{ kind: 'jdk.version', values: { major: 8, update: 152, version: '8u152' } }],
    },
    {
      line: 'openjdk version "1.8.0_352"',
      findings: [{ kind: 'jdk.version', values: { major: 8, update: 352, version: '8u352' } }],
    },
    {
      line: 'openjdk version "11.0.2" 2019-01-15',
      findings: [{ kind: 'jdk.version', values: { major: 11, version: '11' } }],
    },
    {
      line: 'JAVA_HOME=/usr/lib/jvm/jdk-17.0.2',
      findings: [{ kind: 'jdk.version', values: { major: 17, version: '17' } }],
    },
  ])('$line', ({ line, findings }) => {
    expect(findingsOf(jdkVersion, line)).toEqual(findings);
  });

  it.each(['Current genre: jazz', 'INFO JdkLoggerFactory ready', 'java version unknown'])(
    'finds nothing in %s',
    (line) => {
      expect(findingsOf(jdkVersion, line)).toEqual([]);
    },
  );

  it('does not read a JDK bug id as a version', () => {
    expect(findingsOf(jdkVersion, 'see JDK-8013267 (MemberNameTable moved to the heap)')).toEqual([]);
  });

  it('reads the JRE version from an hs_err header', () => {
    const line = '# JRE version: OpenJDK Runtime Environment (8.0_144-b01) (build 1.8.0_144-b01)';
    expect(findingsOf(jdkVersion, line).map((f) => f.kind)).toEqual(['jdk.version', 'jdk.8-native-leak']);
  });

  it('reads the JDK version from an Amazon Linux / RHEL path', () => {
    const line = '/usr/lib/jvm/java-1.8.0-openjdk-1.8.0_131.x86_64/jre/bin/java -Xmx2g';
    expect(findingsOf(jdkVersion, line)[0]?.values).toMatchObject({ major: 8, update: 131 });
  });
});
