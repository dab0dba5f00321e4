// @ts-nocheck
import type { Extractor } from '../../../src/engine/extractors/types.ts';
import type { Finding } from '../../../src/engine/facts.ts';
import { normalise } from '../../../src/engine/ingest/normalise.ts';

/**
 * Runs one extractor on a raw line the way the engine does: normalise it, call `extract` only when a
 * trigger is present. A line whose triggers are missing therefore finds nothing, as in production.
 */
export function findingsOf(extractor: Extractor, raw: string): Finding[] {
  const line = normalise(raw);
  const lower = line.toLowerCase();
  if (!extractor.triggers.some((t) => lower.includes(t))) return [];
  return extractor.extract(line);
}

/** The kinds an extractor finds on a raw line, in the order it reports them. */
export function kindsOf(extractor: Extractor, raw: string): string[] {
  return findingsOf(extractor, raw).map((f) => f.kind);
}
