import { PROFILE_DIMENSIONS, type ResourceProfile } from '../calculators/flink-slots.ts';
import type { Fact } from '../facts.ts';
import { formatSize } from '../units.ts';
import { fact, output, parseFailed } from './common.ts';
import { PROFILE_PATTERN, parseResourceProfile } from './resource-profile.ts';
import type { Parser, ParserRun } from './types.ts';

class ResourceProfileRun implements ParserRun {
  private readonly profiles: { profile: ResourceProfile; line: number; text: string }[] = [];
  private unknown = 0;

  push(line: string, lineNo: number): void {
    // Found inside long JobManager logs: skip the regex on the many lines that cannot hold a profile.
    if (!line.includes('ResourceProfile{')) return;
    for (const m of line.matchAll(PROFILE_PATTERN)) {
      const body = m[1] ?? '';
      const profile = parseResourceProfile(body);
      if (profile) {
        if (this.profiles.length < 1000) this.profiles.push({ profile, line: lineNo, text: line });
      } else if (/^\s*(UNKNOWN|ANY)\s*$/.test(body)) this.unknown++;
    }
  }

  finish() {
    const first = this.profiles[0];
    if (!first && this.unknown === 0)
      throw parseFailed(
        'ResourceProfile{cpuCores=..., taskHeapMemory=...} as Flink prints it in NoResourceAvailableException or the dashboard.',
      );
    const values: Record<string, number | string | boolean> = {
      profiles: this.profiles.length,
      unknownProfiles: this.unknown,
    };
    const facts: Fact[] = [];
    if (first) {
      for (const key of PROFILE_DIMENSIONS)
        values[key === 'cpuCores' ? key : `${key}Bytes`] = first.profile[key];
      for (const key of PROFILE_DIMENSIONS)
        values[`max${key.charAt(0).toUpperCase()}${key.slice(1)}`] = Math.max(
          ...this.profiles.map((p) => p.profile[key]),
        );
      facts.push(fact('flink.requested-profile', first.line, first.text, { ...first.profile }));
    }
    const summary = first
      ? `${this.profiles.length} resource profile(s); the first asks for ${first.profile.cpuCores} cores, ${formatSize(first.profile.taskHeapMemory)} task heap, ${formatSize(first.profile.taskOffHeapMemory)} task off-heap, ${formatSize(first.profile.managedMemory)} managed, ${formatSize(first.profile.networkMemory)} network.`
      : `${this.unknown} resource profile(s), all UNKNOWN: the job sets no fine-grained resources, so slots are counted, not sized.`;
    return output('flink-resource-profile', values, summary, facts, undefined, first?.line ?? 1);
  }
}

/** ResourceProfile{...} strings from NoResourceAvailableException messages and the Flink dashboard. */
export const flinkResourceProfileParser: Parser = {
  id: 'flink-resource-profile',
  title: 'Flink ResourceProfile',
  howToGet:
    'the NoResourceAvailableException or "Could not acquire the minimum required resources" line from the JobManager log',
  detect: (head) => head.some((l) => /ResourceProfile\{/.test(l)),
  create: () => new ResourceProfileRun(),
};
