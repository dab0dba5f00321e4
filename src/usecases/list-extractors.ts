import { EXTRACTORS } from '../engine/extractors/registry.ts';

/** What the engine can read from a log: one entry per extractor, in registry order. */
export function listExtractors(): { id: string; description: string }[] {
  return Object.values(EXTRACTORS).map(({ id, description }) => ({ id, description }));
}
