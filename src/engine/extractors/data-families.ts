import type { FactValue, Finding } from '../facts.ts';
import { triggerTest } from '../triggers.ts';
import compiled from './families/compiled.json' with { type: 'json' };
import { CompiledFamiliesSchema, type DataFamily, type DataRule } from './families/schema.ts';
import type { Extractor } from './types.ts';

/** A family's pattern, ready to run: its regex built once, its triggers, its kind and values. */
export interface LoadedRule {
  kind: string;
  re: RegExp;
  triggers: readonly string[];
  values: Readonly<Record<string, FactValue>>;
  numbers: readonly string[];
}

/** The families kept as data (src/engine/extractors/families/*.yaml), by extractor id. */
export const DATA_FAMILIES: Readonly<Record<string, readonly DataFamily[]>> =
  CompiledFamiliesSchema.parse(compiled);

function loadRule(kind: string, rule: DataRule): LoadedRule {
  // The build checked that the pattern compiles; linear.test.ts times it with the others.
  const re = new RegExp(rule.pattern, rule.flags);
  return { kind, re, triggers: rule.triggers, values: rule.values, numbers: rule.numbers };
}

/** Every pattern the data families of one extractor add, in file order. */
export function dataRulesOf(id: string): LoadedRule[] {
  return (DATA_FAMILIES[id] ?? []).flatMap((family) =>
    family.patterns.map((rule) => loadRule(family.kind, rule)),
  );
}

function valuesOf(rule: LoadedRule, match: RegExpExecArray): Record<string, FactValue> {
  const values: Record<string, FactValue> = { ...rule.values };
  for (const [name, text] of Object.entries(match.groups ?? {})) {
    if (text === undefined) continue;
    values[name] = rule.numbers.includes(name) ? Number(text) : text;
  }
  return values;
}

/** Findings of the data rules a line holds, a kind the extractor already found left to it. */
export function dataFindings(
  rules: readonly LoadedRule[],
  line: string,
  found: readonly Finding[],
  wanted: (kind: string) => boolean = () => true,
): Finding[] {
  const kinds = new Set(found.map((finding) => finding.kind));
  const findings: Finding[] = [];
  for (const rule of rules) {
    if (kinds.has(rule.kind) || !wanted(rule.kind)) continue;
    if (!triggerTest(rule.triggers).test(line)) continue;
    const match = rule.re.exec(line);
    if (!match) continue;
    const values = valuesOf(rule, match);
    findings.push(Object.keys(values).length > 0 ? { kind: rule.kind, values } : { kind: rule.kind });
    kinds.add(rule.kind);
  }
  return findings;
}

/**
 * A trigger's kinds once data rules share it. A trigger the extractor has without naming its kinds
 * may give anything, and stays so; a new one gives only what its data rules give.
 */
function mergedTriggerKinds(extractor: Extractor, rules: readonly LoadedRule[]): Record<string, string[]> {
  const merged: Record<string, string[]> = {};
  for (const [trigger, kinds] of Object.entries(extractor.triggerKinds ?? {})) merged[trigger] = [...kinds];
  for (const rule of rules) {
    for (const trigger of rule.triggers) {
      const open = extractor.triggers.includes(trigger) && !extractor.triggerKinds?.[trigger];
      if (open) continue;
      const kinds = merged[trigger] ?? [];
      if (!kinds.includes(rule.kind)) kinds.push(rule.kind);
      merged[trigger] = kinds;
    }
  }
  return merged;
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

/**
 * The extractor with the families kept as data for it: their patterns run after its own code on the
 * lines holding one of their triggers, and their sources and examples join its families. Adding a
 * family to an extractor this way touches one YAML file and no TypeScript.
 */
export function withDataFamilies(extractor: Extractor): Extractor {
  const families = DATA_FAMILIES[extractor.id] ?? [];
  if (families.length === 0) return extractor;
  const rules = dataRulesOf(extractor.id);
  const ruleKinds = rules.map((rule) => rule.kind);
  const dataTriggers = [...new Set(rules.flatMap((rule) => rule.triggers))];
  // One test for all the data triggers: most lines that open the extractor hold none of them.
  const anyTrigger = triggerTest(dataTriggers);
  return {
    ...extractor,
    triggers: union(extractor.triggers, dataTriggers),
    ...(extractor.triggerKinds ? { triggerKinds: mergedTriggerKinds(extractor, rules) } : {}),
    ...(extractor.kinds ? { kinds: union(extractor.kinds, ruleKinds) } : {}),
    extract(line, wanted) {
      const found = extractor.extract(line, wanted);
      if (!anyTrigger.test(line)) return found;
      return [...found, ...dataFindings(rules, line, found, wanted)];
    },
    families: [...(extractor.families ?? []), ...families],
    patterns: [...(extractor.patterns ?? []), ...rules.map((rule) => rule.re)],
  };
}
