import type { Finding } from '../facts.ts';

/**
 * Turns one normalised log line into typed findings. Pure and line-local, so the engine can stream
 * a log of any size. Every regex must be linear-time: no nested or overlapping unbounded quantifiers.
 */
export interface Extractor {
  /** Stable id, shown by `memdoctor extractors list`. */
  readonly id: string;
  readonly description: string;
  /**
   * Lower-case literals; `extract` is only called for lines that contain one of them. They keep a
   * 1 GiB log fast: most lines contain none.
   */
  readonly triggers: readonly string[];
  /**
   * `wanted` says which kinds are still worth finding; extractors with many independent patterns
   * (markers) skip the others, which saves most of their work on a long log. Ignoring it is correct.
   */
  extract(line: string, wanted?: (kind: string) => boolean): Finding[];
}
