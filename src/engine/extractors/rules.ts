import type { FactValue, Finding } from '../facts.ts';
import { triggerTest } from '../triggers.ts';

/** One line pattern and the finding it stands for. */
export interface LineRule {
  re: RegExp;
  kind: string;
  values?: (match: RegExpExecArray) => Record<string, FactValue>;
  /** When true, later rules of the same extractor still run after this one matched. */
  continue?: boolean;
  /**
   * Lower-case literals one of which is in every line `re` matches: the rule runs only on a line
   * holding one, so the engine knows this rule's kind is all such a line can give through them.
   */
  triggers?: readonly string[];
}

/** Applies rules in order; the first match wins unless it says `continue`. */
export function applyRules(rules: readonly LineRule[], line: string): Finding[] {
  const findings: Finding[] = [];
  for (const rule of rules) {
    if (rule.triggers && !triggerTest(rule.triggers).test(line)) continue;
    const match = rule.re.exec(line);
    if (!match) continue;
    findings.push(rule.values ? { kind: rule.kind, values: rule.values(match) } : { kind: rule.kind });
    if (!rule.continue) break;
  }
  return findings;
}

/** A word or pattern whose presence alone is the finding (an engine marker, a cause in a frame). */
export interface Marker {
  kind: string;
  re: RegExp;
  /**
   * Lower-case literals one of which is in every line `re` matches; the marker runs only on lines
   * holding one. Once the marker's kind is kept in full, these literals stop opening the marker.
   */
  triggers: readonly string[];
}

/** Every kind whose marker is present in the line, each once (a kind may have several markers). */
export function markersIn(
  markers: readonly Marker[],
  line: string,
  wanted: (kind: string) => boolean = () => true,
): Finding[] {
  const found = new Set<string>();
  for (const marker of markers) {
    if (found.has(marker.kind) || !wanted(marker.kind)) continue;
    if (!triggerTest(marker.triggers).test(line)) continue;
    if (marker.re.test(line)) found.add(marker.kind);
  }
  return [...found].map((kind) => ({ kind }));
}

/** An extractor's triggers and the kinds each can give, from the triggers of its rules or markers. */
export function triggersOf(items: readonly { kind: string; triggers?: readonly string[] }[]): {
  triggers: string[];
  triggerKinds: Record<string, string[]>;
} {
  const triggerKinds: Record<string, string[]> = {};
  for (const item of items) {
    if (!item.triggers) throw new Error(`a rule of kind ${item.kind} has no triggers`);
    for (const trigger of item.triggers) {
      const kinds = triggerKinds[trigger] ?? [];
      if (!kinds.includes(item.kind)) kinds.push(item.kind);
      triggerKinds[trigger] = kinds;
    }
  }
  return { triggers: Object.keys(triggerKinds), triggerKinds };
}
