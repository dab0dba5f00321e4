// @ts-nocheck
import type { Diagnosis } from '../engine/diagnose.ts';
import type { FactBook } from '../engine/facts.ts';
import type { Finding } from './record.ts';

/** What a walkthrough keeps from a diagnosis: its facts (without source lines) and named values. */
export interface DiagnosisFacts {
  facts: Finding[];
  values: Record<string, string>;
}

/**
 * Takes the facts a diagnosis found (the FactBook keeps a bounded number per kind, so this stays
 * small) and the diagnosis' values (derived settings, config values), for prefill and templates.
 */
export function diagnosisFacts(book: FactBook, diagnosis?: Diagnosis): DiagnosisFacts {
  const seen = new Set<string>();
  const facts: Finding[] = [];
  for (const kind of book.kinds()) {
    for (const fact of book.find(kind)) {
      const finding: Finding = fact.values ? { kind, values: { ...fact.values } } : { kind };
      const key = JSON.stringify(finding);
      if (!seen.has(key)) facts.push(finding);
      seen.add(key);
    }
  }
  const values: Record<string, string> = {};
  const raw = (diagnosis?.facts as { values?: Record<string, unknown> } | undefined)?.values ?? {};
  for (const [key, value] of Object.entries(raw))
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      values[key] = String(value);
  return { facts, values };
}
