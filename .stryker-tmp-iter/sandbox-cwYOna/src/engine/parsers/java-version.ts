// @ts-nocheck
import type { Fact } from '../facts.ts';
import { fact, output, parseFailed } from './common.ts';
import type { Parser, ParserRun } from './types.ts';

const BANNER = /^\s*(?:openjdk|java) version "([^"]+)"/i;
/** Vendors by what their runtime or VM line says, most specific first. */
const VENDORS: readonly [RegExp, string][] = [
  [/Corretto/i, 'Amazon Corretto'],
  [/Zulu/i, 'Azul Zulu'],
  [/Temurin|AdoptOpenJDK/i, 'Eclipse Temurin'],
  [/OpenJ9/i, 'Eclipse OpenJ9'],
  [/IBM J9/i, 'IBM'],
  [/GraalVM/i, 'GraalVM'],
  [/Microsoft/i, 'Microsoft'],
  [/Red_?Hat/i, 'Red Hat'],
  [/SapMachine/i, 'SAP'],
  [/Java\(TM\) SE Runtime/i, 'Oracle'],
  [/OpenJDK Runtime Environment/i, 'OpenJDK'],
];

interface Version {
  major: number;
  update?: number;
}

/** "1.8.0_66" -> 8u66, "11.0.16" -> 11 update 16, "17" -> 17, "1.8.0-internal" -> 8 (update unknown). */
export function parseJavaVersion(text: string): Version | undefined {
  const legacy = /^1\.(\d+)\.\d+(?:_(\d+))?/.exec(text);
  if (legacy) return { major: Number(legacy[1]), ...(legacy[2] ? { update: Number(legacy[2]) } : {}) };
  const modern = /^(\d+)(?:\.\d+\.(\d+))?/.exec(text);
  if (!modern) return undefined;
  return { major: Number(modern[1]), ...(modern[2] ? { update: Number(modern[2]) } : {}) };
}

class JavaVersionRun implements ParserRun {
  private banner?: { version: string; line: number; text: string };
  private readonly others: string[] = [];
  private basedOn?: number;

  push(line: string, lineNo: number): void {
    const b = BANNER.exec(line);
    if (b && !this.banner) {
      this.banner = { version: b[1] ?? '', line: lineNo, text: line };
      return;
    }
    if (!this.banner) return;
    if (this.others.length < 8 && line.trim()) this.others.push(line);
    // OpenJ9 builds of JDK 8 name the OpenJDK update they are based on: "based on jdk8u152-b16".
    const based = /based on jdk8u(\d+)/.exec(line);
    if (based) this.basedOn = Number(based[1]);
  }

  finish() {
    if (!this.banner)
      throw parseFailed('a first line like `openjdk version "1.8.0_66"` (run java -version).');
    const parsed = parseJavaVersion(this.banner.version);
    if (!parsed) throw parseFailed(`a Java version number in the banner, got "${this.banner.version}".`);
    const update = parsed.update ?? (parsed.major === 8 ? this.basedOn : undefined);
    const rest = this.others.join('\n');
    const vendor = VENDORS.find(([re]) => re.test(rest))?.[1] ?? 'unknown';
    const vm = this.others.find((l) => /\bVM\b/.test(l))?.trim() ?? '';
    const before152 = parsed.major === 8 && update !== undefined && update < 152;
    const values = {
      version: this.banner.version,
      major: parsed.major,
      ...(update !== undefined ? { update } : {}),
      vendor,
      vm,
      jdk8Before152: before152,
    };
    const facts: Fact[] = [];
    if (before152)
      facts.push(fact('jdk.8-native-leak', this.banner.line, this.banner.text, { version: `8u${update}` }));
    const name = parsed.major === 8 && update !== undefined ? `8u${update}` : this.banner.version;
    const verdict = before152
      ? 'JDK 8 before 8u152: native memory leak in MemberNameTable (JDK-8013267) applies'
      : 'no known JDK native leak for this version';
    const summary = `Java ${name} from ${vendor}${vm ? ` (${vm})` : ''}.`;
    return output('java-version', values, summary, facts, verdict, this.banner.line);
  }
}

/** `java -version` output: vendor and version, flagging JDK 8 before 8u152. */
export const javaVersionParser: Parser = {
  id: 'java-version',
  title: 'java -version',
  howToGet: '`java -version` with the same java the job runs (it prints to stderr: add 2>&1)',
  detect: (head) => head.some((l) => BANNER.test(l)),
  create: () => new JavaVersionRun(),
};
