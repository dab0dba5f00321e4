/** One collection as a GC log reports it, whatever the format; the gc-log parser folds these into totals. */
export interface GcEvent {
  /** Seconds: JVM uptime, or for wall-clock decorators seconds since the log's first stamped line. */
  uptime: number;
  /** A stop-the-world collection of the whole heap (Full GC, Pause Full, Shenandoah's degenerated GC). */
  full: boolean;
  /**
   * The collection marked the whole heap, so what is left after it is live data: every full GC, and
   * the concurrent cycles of single-generation ZGC and Shenandoah and generational ZGC's major ones.
   */
  wholeHeap: boolean;
  pauseSeconds?: number;
  afterBytes?: number;
  capacityBytes?: number;
  /** The share left as the log itself states it: JDK 8's old generation, ZGC's percentages. */
  statedShare?: number;
  /** What `statedShare` is a share of. */
  shareOf?: 'heap' | 'old generation';
  line: number;
  text: string;
}

/** Reads one GC log format line by line and hands each finished collection to `emit`. */
export interface GcLineReader {
  push(line: string, lineNo: number): void;
  /** Hands over the collections still open at the end of the log. */
  flush(): void;
}

export type EmitGcEvent = (event: GcEvent) => void;
