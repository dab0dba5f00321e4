import type { Finding } from '../facts.ts';

/**
 * One family of messages an engine prints (every wording of "Java heap space", YARN's physical-memory
 * kill...), with where its text comes from. Its examples are lines taken from that source, so the
 * rule stays tied to what the engines really print; the families test runs each through the extractor.
 */
export interface MessageFamily {
  /** What the family is, in a few words. */
  readonly name: string;
  /** The fact kind a line of this family gives. */
  readonly kind: string;
  /** Where the wording comes from: repository and file, or the doc page. */
  readonly source: string;
  /** The versions whose wording this covers, e.g. "Spark 3.0+" or "JDK 8-21". */
  readonly versions: string;
  /** Lines in the format the system prints, built from the source's template. */
  readonly examples: readonly string[];
}

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
   * For a trigger, the only kinds a line can give because that trigger is in it (its rules and
   * markers run only on lines holding one of their own triggers). Once every one of those kinds is
   * kept in full, the trigger leaves the engine's scan. A trigger missing here may give any kind of
   * `kinds`, or, without `kinds`, anything at all: it stays in the scan.
   */
  readonly triggerKinds?: Readonly<Record<string, readonly string[]>>;
  /**
   * For a trigger, characters that must not come right before it for it to count: 'yarn.' opens
   * the settings extractor in "yarn.nodemanager.vmem-check-enabled=false", not in the package name
   * "org.apache.hadoop.yarn.server". `extract` must then find nothing there either.
   */
  readonly notAfter?: Readonly<Record<string, string>>;
  /** Every kind `extract` can return, for triggers `triggerKinds` does not name. */
  readonly kinds?: readonly string[];
  /**
   * `wanted` says which kinds are still worth finding; extractors with many independent patterns
   * (markers) skip the others, which saves most of their work on a long log. Ignoring it is correct.
   */
  extract(line: string, wanted?: (kind: string) => boolean): Finding[];
  /** The message families it recognises, with their sources; every kind it reports needs one. */
  readonly families?: readonly MessageFamily[];
  /**
   * Every pattern `extract` applies, so the families test can require a source line for each: a rule
   * no example matches fails the suite.
   */
  readonly patterns?: readonly RegExp[];
}
