import { parseArgs } from 'node:util';
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

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

/** node's parseArgs options for the specs: a `bool` flag alone is true; every other kind takes a value. */
function parseOptions(specs: FlagSpecs): Record<string, { type: 'string' | 'boolean' }> {
  return Object.fromEntries(
    Object.entries(specs).map(([key, spec]) => [key, { type: spec.kind === 'bool' ? 'boolean' : 'string' }]),
  );
}

/** The raw text of an option token; a `bool` flag also takes a following `true`/`false` (`--x false`). */
function rawValue(token: Token & { kind: 'option' }, next: Token | undefined, spec: FlagSpec) {
  if (token.value !== undefined) return { raw: token.value, used: 1 };
  if (spec.kind !== 'bool') throw new UsageError(`--${token.name} needs a value.`);
  if (next?.kind === 'positional' && /^(true|false)$/i.test(next.value)) return { raw: next.value, used: 2 };
  return { raw: 'true', used: 1 };
}

function unexpected(token: Token): UsageError {
  const text = token.kind === 'positional' ? token.value : '--';
  return new UsageError(`unexpected argument "${text}": flags look like --key value.`);
}

/**
 * Reads `--key value`, `--key=value` and bare boolean `--key` flags (node's util.parseArgs splits
 * them), named as the system's own settings. Unknown keys fail with the list of known ones, so a typo
 * never silently falls back to a default.
 */
export function parseFlags(args: readonly string[], specs: FlagSpecs, readFile: FileReader): FlagValues {
  // Not strict: unknown flags and missing values get memdoctor's own messages below.
  const { tokens } = parseArgs({
    args: [...args],
    options: parseOptions(specs),
    strict: false,
    tokens: true,
  });
  const values: FlagValues = {};
  for (let i = 0; i < tokens.length; ) {
    const token = tokens[i] as Token;
    if (token.kind !== 'option') throw unexpected(token);
    const spec = Object.hasOwn(specs, token.name) ? specs[token.name] : undefined;
    if (!spec || !token.rawName.startsWith('--')) {
      const known = Object.keys(specs).map((k) => `--${k}`);
      throw new UsageError(`unknown flag ${token.rawName}. Known flags: ${known.join(', ')}.`);
    }
    const { raw, used } = rawValue(token, tokens[i + 1], spec);
    values[token.name] = convert(token.name, spec, raw, readFile);
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
