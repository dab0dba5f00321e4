import { PROFILE_DIMENSIONS, type ResourceProfile } from '../calculators/flink-slots.ts';
import { MiB, parseSize } from '../units.ts';

/** Every ResourceProfile{...} in a text, e.g. from a NoResourceAvailableException or the dashboard. */
export const PROFILE_PATTERN = /ResourceProfile\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}/g;

/** "256.000mb (268435456 bytes)" -> 268435456; "0 bytes" -> 0; "1g" -> 1073741824. */
function memory(text: string): number | undefined {
  const exact = /\((\d+) bytes\)/.exec(text) ?? /^\s*(\d+) bytes\s*$/.exec(text);
  if (exact) return Number(exact[1]);
  return parseSize(text.trim().replace(/(\d)\s*([kmgt])b$/i, '$1$2'));
}

/**
 * Parses the inside of one `ResourceProfile{...}` as Flink prints it. Returns undefined for UNKNOWN/ANY
 * profiles (no figures to compare) and for text with no recognisable field.
 */
export function parseResourceProfile(body: string): ResourceProfile | undefined {
  if (/^\s*(UNKNOWN|ANY)\s*$/i.test(body)) return undefined;
  const profile: ResourceProfile = {
    cpuCores: 0,
    taskHeapMemory: 0,
    taskOffHeapMemory: 0,
    managedMemory: 0,
    networkMemory: 0,
  };
  const fields = profileFields(body);
  let found = 0;
  for (const key of PROFILE_DIMENSIONS) {
    const text = fields.get(key);
    if (text === undefined) continue;
    const value = key === 'cpuCores' ? Number.parseFloat(text) : memory(text);
    if (value === undefined || Number.isNaN(value)) continue;
    profile[key] = value;
    found++;
  }
  return found > 0 ? profile : undefined;
}

/** `key=value` pairs of a profile body, the first of each key (one fixed pattern the tests can time). */
function profileFields(body: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const m of body.matchAll(/\b([A-Za-z]+)=([^,}]+)/g)) {
    const [, key = '', value = ''] = m;
    if (!fields.has(key)) fields.set(key, value);
  }
  return fields;
}

/** A figure of a REST ResourceProfileInfo in bytes: Flink sends whole MiB, and -1 for an UNKNOWN profile. */
function restMebibytes(value: number | undefined): number {
  return value === undefined || value < 0 ? 0 : value * MiB;
}

/**
 * The same, from a JSON object as the REST API returns it (`totalResource`, `freeResource`). Flink's
 * ResourceProfileInfo (flink-runtime rest/messages/ResourceProfileInfo.java) carries the memory figures as
 * `int` mebibytes (`getMebiBytes()`, rounded down), unlike `memoryConfiguration` and `hardware`, which
 * are bytes; an UNKNOWN profile is sent as -1 everywhere.
 */
export function profileFromJson(
  json: Partial<Record<keyof ResourceProfile, number>> | undefined,
): ResourceProfile {
  const cpu = json?.cpuCores ?? 0;
  return {
    cpuCores: Math.max(0, cpu),
    taskHeapMemory: restMebibytes(json?.taskHeapMemory),
    taskOffHeapMemory: restMebibytes(json?.taskOffHeapMemory),
    managedMemory: restMebibytes(json?.managedMemory),
    networkMemory: restMebibytes(json?.networkMemory),
  };
}

const REQUIREMENT =
  /ResourceRequirement\{resourceProfile=ResourceProfile\{([^{}]*)\},\s*numberOfRequiredSlots=(\d+)\}/g;

/**
 * Every sized profile a text asks for, repeated as often as Flink's `numberOfRequiredSlots` says
 * (UNKNOWN profiles are left out: they carry no figures). Capped so a long log stays cheap.
 */
export function requestedProfiles(text: string, cap = 10_000): ResourceProfile[] {
  const out: ResourceProfile[] = [];
  const requirements = [...text.matchAll(REQUIREMENT)];
  const pairs: [string, number][] =
    requirements.length > 0
      ? requirements.map((m) => [m[1] ?? '', Number(m[2])])
      : [...text.matchAll(PROFILE_PATTERN)].map((m) => [m[1] ?? '', 1]);
  for (const [body, count] of pairs) {
    const profile = parseResourceProfile(body);
    for (let i = 0; profile && i < count && out.length < cap; i++) out.push(profile);
  }
  return out;
}
