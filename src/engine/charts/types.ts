/**
 * The figures a chart is drawn from: what a parser or a calculator already found, kept as data so the
 * drawing stays a pure function of it. One kind per picture; `draw` in index.ts maps each to its SVG.
 */

/** One reading over time: `t` in seconds from any origin (or the sample's index when untimed). */
export interface TimePoint {
  t: number;
  bytes: number;
}

/** Heap left after each collection against the maximum heap (GC logs of every collector). */
export interface GcHeapChartData {
  kind: 'gc-heap';
  /** Heap in use after every collection, in log order (downsampled with the extremes kept). */
  after: TimePoint[];
  /** After each whole-heap collection: the live data, whose trend tells a leak from a peak. */
  floors: TimePoint[];
  /** The most the heap may grow to (-Xmx), or the largest size the log shows. */
  limitBytes?: number;
  limitLabel: string;
  /** False when the log's lines carry no time: the x axis counts collections instead. */
  timed: boolean;
  /** The parser's judgement: the floor keeps rising. Only then is a time to the limit drawn. */
  floorRising: boolean;
  verdict?: string;
}

/** Memory samples (ps, top, VmRSS, metric series) against the limit, with the series' judgement. */
export interface SamplesChartData {
  kind: 'memory-samples';
  title: string;
  points: TimePoint[];
  timed: boolean;
  limitBytes?: number;
  limitLabel?: string;
  shape: string;
  bytesPerSecond?: number;
  bytesPerSample: number;
  secondsToLimit?: number;
  /** Indexes into `points` where one allocation landed, and runs held level. */
  steps: number[];
  plateaus: [number, number][];
  verdict?: string;
  /** How many samples were read, when `points` holds fewer (thinned for a stored record). */
  count?: number;
}

export interface Bar {
  label: string;
  bytes: number;
  /** Drawn in the warning colour: the part the judgement names. */
  emphasis?: boolean;
}

/** Sizes side by side (NMT categories, glibc arenas), largest first. */
export interface BarsChartData {
  kind: 'bars';
  /** Names the file: `nmt`, `pmap-arenas`. */
  id: string;
  title: string;
  valueLabel: string;
  bars: Bar[];
  limitBytes?: number;
  limitLabel?: string;
  verdict?: string;
}

export interface StackPart {
  label: string;
  bytes: number;
  /** The part above the limit: what overflowed. */
  overflow?: boolean;
  /** A measured total rather than a part of the model: drawn in grey. */
  measured?: boolean;
}

/** A memory model as stacked bars (Spark executor, Flink TaskManager), the overflowed part marked. */
export interface StackChartData {
  kind: 'stack';
  id: string;
  title: string;
  stacks: { label: string; parts: StackPart[] }[];
  limitBytes?: number;
  limitLabel?: string;
  verdict?: string;
}

/**
 * A few measured peaks side by side for each of several things (per executor: JVM heap, off-heap,
 * process RSS), against one limit. Not a stack: the measures overlap (RSS holds the heap).
 */
export interface PeaksChartData {
  kind: 'peaks';
  id: string;
  title: string;
  /** What each value in a row is, in order: "JVM heap", "process RSS". */
  measures: string[];
  /** One group of bars per row; a value left out was not measured. */
  rows: { label: string; values: (number | undefined)[]; emphasis?: boolean }[];
  limitBytes?: number;
  limitLabel?: string;
  /** Said under the verdict: what is missing, what was left out. */
  note?: string;
  verdict?: string;
}

/** A bisection's narrowing: how many candidates were still suspected after each round. */
export interface NarrowingChartData {
  kind: 'narrowing';
  id: string;
  title: string;
  /** Candidates at the start. */
  total: number;
  rounds: { tested: string[]; leak: boolean }[];
  found: string;
  /** What "bad" meant: "memory keeps growing". */
  symptom?: string;
}

export type ChartData =
  | GcHeapChartData
  | SamplesChartData
  | BarsChartData
  | StackChartData
  | PeaksChartData
  | NarrowingChartData;

/** A drawn chart: the SVG, its size in pixels, and the same judgement in words for alt text. */
export interface Chart {
  /** A file name without extension: `gc-heap`, `memory-samples`, `spark-executor`. */
  id: string;
  title: string;
  alt: string;
  svg: string;
  width: number;
  height: number;
}
