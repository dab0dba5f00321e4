import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { type CompiledFamilies, type DataFamily, type DataRule, FamiliesFileSchema } from './schema.ts';

/** A families file as read from disk: its name (for messages) and its text. */
export interface FamiliesSource {
  name: string;
  text: string;
}

/** A families file that cannot be used, with the file and family a person must fix. */
export class FamiliesInvalidError extends Error {
  constructor(file: string, detail: string) {
    super(`${file}: ${detail}`);
    this.name = 'FamiliesInvalidError';
  }
}

function regexOf(rule: DataRule, where: string): RegExp {
  try {
    return new RegExp(rule.pattern, rule.flags);
  } catch (error) {
    throw new Error(`${where}: pattern ${JSON.stringify(rule.pattern)} is not a regex (${String(error)})`);
  }
}

/** The checks zod cannot make: patterns compile, name their numbers, and meet the family's examples. */
function checkFamily(family: DataFamily): void {
  const where = `family "${family.name}"`;
  for (const rule of family.patterns) {
    const re = regexOf(rule, where);
    const groups = new Set([...rule.pattern.matchAll(/\(\?<([A-Za-z]\w*)>/g)].map((m) => m[1]));
    for (const name of rule.numbers)
      if (!groups.has(name)) throw new Error(`${where}: numbers names ${name}, a group the pattern lacks`);
    if (!family.examples.some((line) => re.test(line)))
      throw new Error(`${where}: no example matches pattern ${JSON.stringify(rule.pattern)}`);
  }
}

function parseFile(source: FamiliesSource) {
  let data: unknown;
  try {
    data = parseYaml(source.text);
  } catch (error) {
    throw new FamiliesInvalidError(source.name, `not valid YAML (${String(error)})`);
  }
  const parsed = FamiliesFileSchema.safeParse(data);
  if (!parsed.success) throw new FamiliesInvalidError(source.name, z.prettifyError(parsed.error));
  try {
    for (const family of parsed.data.families) checkFamily(family);
  } catch (error) {
    throw new FamiliesInvalidError(source.name, error instanceof Error ? error.message : String(error));
  }
  return parsed.data;
}

/**
 * Validates every families file and groups their families by extractor id, files taken in name
 * order, so the output (and so the engine's) does not depend on the order a directory lists them.
 */
export function compileFamilies(sources: readonly FamiliesSource[]): CompiledFamilies {
  const compiled: CompiledFamilies = {};
  const sorted = [...sources].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const source of sorted) {
    const file = parseFile(source);
    compiled[file.extractor] = [...(compiled[file.extractor] ?? []), ...file.families];
  }
  return Object.fromEntries(Object.entries(compiled).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The JSON the engine imports, as the build writes it. */
export function compiledFamiliesJson(sources: readonly FamiliesSource[]): string {
  return `${JSON.stringify(compileFamilies(sources), null, 2)}\n`;
}
