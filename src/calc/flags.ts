import { z } from 'zod';
import { parseSize } from '../engine/units.ts';
import { UsageError } from '../errors.ts';

/** How a flag's text becomes a value. */
export type FlagKind = 'size' | 'fraction' | 'int' | 'bool' | 'text' | 'file';

export interface FlagSpec {
  kind: FlagKind;
  help: string;
  /** Allowed values for `text` flags. */
  choices?: readonly string[];
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** The file a `file` flag names, read by the surface before the calculator runs (calculators do no I/O). */
export interface FileText {
  path: string;
  text: string;
}

export type FlagValue = number | boolean | string | FileText;
export type FlagValues = Record<string, FlagValue>;

/** How a surface reads the file a flag names (`--taskmanagers tms.json`); throws UsageError when it cannot. */
export type FileReader = (path: string, flag: string) => string;

const fractionSchema = z.coerce.number().gt(0).lte(1);
const intSchema = z.coerce.number().int().positive();

function convert(key: string, spec: FlagSpec, raw: string, readFile: FileReader): FlagValue {
  if (spec.kind === 'file') return { path: raw, text: readFile(raw, key) };
  if (spec.kind === 'size') {
    const bytes = parseSize(raw, 'm');
    if (bytes === undefined) throw new UsageError(`--${key} takes a size like 8g or 1536m; got "${raw}".`);
    return bytes;
  }
  if (spec.kind === 'bool') {
    if (!/^(true|false)$/i.test(raw)) throw new UsageError(`--${key} takes true or false; got "${raw}".`);
    return raw.toLowerCase() === 'true';
  }
  if (spec.kind === 'text') {
    if (spec.choices && !spec.choices.includes(raw))
      throw new UsageError(`--${key} must be one of ${spec.choices.join(', ')}; got "${raw}".`);
    return raw;
  }
  const parsed = (spec.kind === 'fraction' ? fractionSchema : intSchema).safeParse(raw);
  if (!parsed.success) {
    const want = spec.kind === 'fraction' ? 'a fraction in (0, 1]' : 'a positive whole number';
    throw new UsageError(`--${key} takes ${want}; got "${raw}".`);
  }
  return parsed.data;
}

/** The raw text of the flag at `args[i]` and how many arguments it used. */
function rawValue(args: readonly string[], i: number, key: string, spec: FlagSpec, inline?: string) {
  if (inline !== undefined) return { raw: inline, used: 1 };
  const next = args[i + 1];
  if (spec.kind === 'bool' && (next === undefined || next.startsWith('--'))) return { raw: 'true', used: 1 };
  if (next === undefined) throw new UsageError(`--${key} needs a value.`);
  return { raw: next, used: 2 };
}

/**
 * Reads `--key value`, `--key=value` and bare boolean `--key` flags, named as the system's own
 * settings. Unknown keys fail with the list of known ones, so a typo never silently falls back to a default.
 */
export function parseFlags(args: readonly string[], specs: FlagSpecs, readFile: FileReader): FlagValues {
  const values: FlagValues = {};
  let i = 0;
  while (i < args.length) {
    const arg = args[i] ?? '';
    if (!arg.startsWith('--'))
      throw new UsageError(`unexpected argument "${arg}": flags look like --key value.`);
    const eq = arg.indexOf('=');
    const key = arg.slice(2, eq === -1 ? undefined : eq);
    const spec = specs[key];
    if (!spec) {
      const known = Object.keys(specs).map((k) => `--${k}`);
      throw new UsageError(`unknown flag --${key}. Known flags: ${known.join(', ')}.`);
    }
    const { raw, used } = rawValue(args, i, key, spec, eq === -1 ? undefined : arg.slice(eq + 1));
    values[key] = convert(key, spec, raw, readFile);
    i += used;
  }
  return values;
}

/** Help lines for a set of flags. */
export function flagHelp(specs: FlagSpecs): string {
  return Object.entries(specs)
    .map(([key, spec]) => `  --${key.padEnd(44)} ${spec.help}`)
    .join('\n');
}

/** Typed readers for parsed flags (the parser has already checked kinds). */
export const read = {
  size: (v: FlagValues, key: string): number | undefined => v[key] as number | undefined,
  num: (v: FlagValues, key: string): number | undefined => v[key] as number | undefined,
  bool: (v: FlagValues, key: string): boolean => v[key] === true,
  text: (v: FlagValues, key: string): string | undefined => v[key] as string | undefined,
  file: (v: FlagValues, key: string): FileText | undefined => v[key] as FileText | undefined,
};
