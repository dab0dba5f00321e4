import type { Extractor } from '../../src/engine/extractors/types.ts';

/** An extractor with a bug: it throws `message` on every line that holds its trigger. */
export function throwingExtractor(id: string, trigger: string, error: Error): Extractor {
  return {
    id,
    description: 'throws',
    triggers: [trigger],
    extract: () => {
      throw error;
    },
  };
}
