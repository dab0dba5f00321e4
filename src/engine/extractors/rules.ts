import type { FactValue, Finding } from '../facts.ts';

/** One line pattern and the finding it stands for. */
export interface LineRule {
  re: RegExp;
  kind: string;
  values?: (match: RegExpExecArray) => Record<string, FactValue>;
  /** When true, later rules of the same extractor still run after this one matched. */
  continue?: boolean;
}

/** Applies rules in order; the first match wins unless it says `continue`. */
export function applyRules(rules: readonly LineRule[], line: string): Finding[] {
  const findings: Finding[] = [];
  for (const rule of rules) {
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
  /** A cheap literal test run first: big alternations of rare markers are costly on every line. */
  gate?: RegExp;
}

/** Every kind whose marker is present in the line, each once (a kind may have several markers). */
export function markersIn(
  markers: readonly Marker[],
  line: string,
  wanted: (kind: string) => boolean = () => true,
): Finding[] {
  const found = new Set<string>();
  for (const marker of markers) {
    if (found.has(marker.kind) || !wanted(marker.kind) || (marker.gate && !marker.gate.test(line))) continue;
    if (marker.re.test(line)) found.add(marker.kind);
  }
  return [...found].map((kind) => ({ kind }));
}
