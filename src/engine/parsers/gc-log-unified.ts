import { sizeOf } from './common.ts';
import type { EmitGcEvent, GcEvent, GcLineReader } from './gc-log-event.ts';

/*
 * JDK 9+ unified logging (-Xlog:gc, -Xlog:gc*), any decorators. Every line of one collection carries
 * its "GC(n)" id, and concurrent cycles interleave with pauses of other ids, so a collection is kept
 * open per id and its last heap transition is what it left. Each regex is linear on any line: its
 * repetitions are bounded, or a name ends where its letters do (`(?![A-Za-z])`).
 */
const SIZE = String.raw`(\d{1,15}[KMG])`;
/** G1, Parallel, Serial, Shenandoah: "GC(7) Pause Full (Ergonomics) 61M->60M(61M) 9.137ms". */
export const UNIFIED_PAUSE = new RegExp(
  String.raw`GC\((\d{1,12})\)\s+(Pause [A-Za-z]+)(?![A-Za-z])[^\n]{0,200}?\s${SIZE}->${SIZE}\(${SIZE}\)\s+(\d+(?:\.\d+)?)ms`,
);
/** A pause without heap figures: ZGC's "GC(0) Pause Mark Start 0.010ms" (21+: "Y: Pause Mark Start (Major)"), Shenandoah's "Pause Init Mark". */
const PAUSE_ONLY = /GC\((\d{1,12})\)\s+(?:[YyO]:\s+)?Pause [A-Za-z][^\n]{0,100}?\s(\d+(?:\.\d+)?)ms\s*$/;
/** Shenandoah ends each concurrent cycle with "GC(3) Concurrent cleanup 36M->13M(128M) 0.013ms". */
const CONCURRENT_CLEANUP = new RegExp(
  String.raw`GC\((\d{1,12})\)\s+Concurrent cleanup\s+${SIZE}->${SIZE}\(${SIZE}\)`,
);
/**
 * ZGC's cycle summary, capacity shares instead of a capacity: JDK 15-20 "GC(3) Garbage Collection
 * (Allocation Stall) 64M(100%)->60M(94%)", generational 21+ "GC(0) Major Collection (Warmup)
 * 130M(4%)->74M(2%) 0.100s" and "Minor Collection" (young generation only).
 */
const ZGC_CYCLE = new RegExp(
  String.raw`GC\((\d{1,12})\)\s+(Garbage|Major|Minor) Collection \([^)\n]{1,80}\)\s+${SIZE}\((\d{1,3})%\)->${SIZE}\((\d{1,3})%\)`,
);
/**
 * The old generation in -Xlog:gc* (gc,heap): JDK 17 "ParOldGen: 22016K(22016K)->22015K(22016K)",
 * "Tenured: 21887K(21888K)->21886K(21888K)"; JDK 11 without the first capacity. The heap total of a
 * -Xlog:gc line counts the young generation's survivors too, so this says better how full the heap is.
 */
const OLD_GENERATION =
  /GC\(\d{1,12}\)\s+(?:ParOldGen|PSOldGen|Tenured):\s+\d{1,15}K(?:\(\d{1,15}K\))?->(\d{1,15})K\((\d{1,15})K\)/;
/** ZGC: "Max Capacity: 3000M(100%)" (gc,heap) or "Heap Max Capacity: 64M" (gc,init). */
const MAX_CAPACITY = new RegExp(`Max Capacity: ${SIZE}`);
/** ZGC: a thread waited for the collector, "Allocation Stall (main) 9.808ms": time the job lost to GC. */
const STALL = /Allocation Stall \([^)\n]{1,80}\) (\d+(?:\.\d+)?)ms/;
/** Unified logging's start-up lines, printed before the first collection: "[0.004s][info][gc] Using G1". */
const UNIFIED_INIT = /\]\[gc(?:,init)?\s*\] (?:Using |Version: |Heap Max Capacity)/;
/** The collector's line, also without decorators (-Xlog:gc:file=gc.log:none): "Using Shenandoah". */
const COLLECTOR = /(?:^|\]\s?)Using (The Z Garbage Collector|G1|Parallel|Serial|Shenandoah|Epsilon)\s*$/;
/** A collection line of a unified log in the first lines of a paste (what detection reads). */
const NUMBERED = /\]\[gc(?:,start)?\s*\] GC\(\d+\)/;

/** Whether a line can only come from a unified GC log. */
export function unifiedGcLine(line: string): boolean {
  return UNIFIED_PAUSE.test(line) || ZGC_CYCLE.test(line) || NUMBERED.test(line) || startupLine(line);
}

function startupLine(line: string): boolean {
  return UNIFIED_INIT.test(line) || COLLECTOR.test(line);
}
/** Leading decorators: "[0.017s]", "[17ms]", "[123ns]", "[2026-12-03T11:40:00.123+0000]". */
const DECORATOR = /^\[([^\]\n]{1,40})\]/;

/** Collections kept open at once: a concurrent cycle spans a few young pauses, no more. */
const MAX_OPEN = 16;

/** Seconds from one decorator, and whether it is an uptime (or else a wall clock / epoch figure). */
function decoratorSeconds(text: string): { seconds: number; uptime: boolean } | undefined {
  const unit = /^(\d+(?:\.\d+)?)(s|ms|ns)$/.exec(text);
  if (unit) {
    const scale = unit[2] === 's' ? 1 : unit[2] === 'ms' ? 1e-3 : 1e-9;
    // timemillis/timenanos count from the epoch; uptime ones from JVM start (under ~30 years).
    const seconds = Number(unit[1]) * scale;
    return { seconds, uptime: seconds < 1e9 };
  }
  const iso = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?)([+-]\d\d)(\d\d)$/.exec(text);
  if (!iso) return undefined;
  const at = Date.parse(`${iso[1]}${iso[2]}:${iso[3]}`);
  return Number.isNaN(at) ? undefined : { seconds: at / 1000, uptime: false };
}

/** The reader of JDK 9+ unified GC logs. */
export class UnifiedGcReader implements GcLineReader {
  private readonly open = new Map<number, GcEvent>();
  private clockStart?: number;
  /** -Xmx as the log states it ("Heap Max Capacity" in gc,init; ZGC's "Max Capacity"), when it does. */
  maxHeapBytes?: number;
  /** Seconds threads stalled waiting for ZGC. */
  stallSeconds = 0;
  collector?: string;
  initSeen = false;
  /** Whether any line carried a time (-Xlog:...:none decorators give none). */
  timed = false;

  constructor(private readonly emit: EmitGcEvent) {}

  push(line: string, lineNo: number): void {
    if (!line.includes('GC(')) {
      this.readUnnumbered(line);
      return;
    }
    const id = /GC\((\d{1,12})\)/.exec(line);
    if (!id) return;
    const event = this.eventFor(Number(id[1]), line, lineNo);
    if (line.includes('Max Capacity')) this.readMaxCapacity(line);
    if (line.includes('Gen: ') || line.includes('Tenured: ')) this.readOldGeneration(event, line);
    else if (line.includes('->')) this.readTransition(event, line, lineNo);
    else if (line.includes('Pause')) this.readPauseOnly(event, line);
  }

  flush(): void {
    for (const id of [...this.open.keys()].sort((a, b) => a - b)) this.close(id);
  }

  /** Start-up lines, the collector's name, ZGC's allocation stalls: lines without a GC id. */
  private readUnnumbered(line: string): void {
    if (!this.initSeen && startupLine(line)) this.initSeen = true;
    this.collector ??= COLLECTOR.exec(line)?.[1];
    if (line.includes('Max Capacity')) this.readMaxCapacity(line);
    const stall = line.includes('Stall') ? STALL.exec(line) : null;
    if (stall) this.stallSeconds += Number(stall[1]) / 1000;
    this.secondsOf(line);
  }

  private readOldGeneration(event: GcEvent, line: string): void {
    const old = OLD_GENERATION.exec(line);
    if (!old || Number(old[2]) === 0) return;
    event.statedShare = Number(old[1]) / Number(old[2]);
    event.shareOf = 'old generation';
  }

  private readMaxCapacity(line: string): void {
    const max = MAX_CAPACITY.exec(line);
    if (max) this.maxHeapBytes = sizeOf(max[1] ?? '');
  }

  /** The open collection with this id, opened (and the oldest closed) when it is new. */
  private eventFor(id: number, line: string, lineNo: number): GcEvent {
    const known = this.open.get(id);
    if (known) return known;
    const event: GcEvent = {
      uptime: this.secondsOf(line) ?? 0,
      full: false,
      wholeHeap: false,
      line: lineNo,
      text: line,
    };
    this.open.set(id, event);
    if (this.open.size > MAX_OPEN) this.close(Math.min(...this.open.keys()));
    return event;
  }

  private close(id: number): void {
    const event = this.open.get(id);
    this.open.delete(id);
    // A cycle cancelled before it reported anything tells nothing.
    if (event && (event.afterBytes !== undefined || event.pauseSeconds !== undefined)) this.emit(event);
  }

  /** The line's time: uptime as is, a wall clock as seconds since the first stamped line. */
  private secondsOf(line: string): number | undefined {
    let rest = line;
    for (let i = 0; i < 4; i++) {
      const d = DECORATOR.exec(rest);
      if (!d) return undefined;
      const t = decoratorSeconds(d[1] ?? '');
      if (t) this.timed = true;
      if (t?.uptime) return t.seconds;
      if (t) {
        this.clockStart ??= t.seconds;
        return t.seconds - this.clockStart;
      }
      rest = rest.slice(d[0].length);
    }
    return undefined;
  }

  private readTransition(event: GcEvent, line: string, lineNo: number): void {
    const pause = line.includes('Pause') ? UNIFIED_PAUSE.exec(line) : null;
    if (pause) {
      // Shenandoah's degenerated GC finishes the cycle with the application stopped, like a full GC.
      const full = /^Pause (Full|Degenerated)$/.test(pause[2] ?? '');
      this.setHeap(event, line, lineNo, { after: pause[4], capacity: pause[5] }, full);
      event.pauseSeconds = (event.pauseSeconds ?? 0) + Number(pause[6]) / 1000;
      return;
    }
    const cleanup = line.includes('cleanup') ? CONCURRENT_CLEANUP.exec(line) : null;
    if (cleanup) {
      this.setHeap(event, line, lineNo, { after: cleanup[3], capacity: cleanup[4] }, false);
      event.wholeHeap = true;
      return;
    }
    const zgc = line.includes('Collection') ? ZGC_CYCLE.exec(line) : null;
    if (zgc) this.readZgcCycle(event, zgc, line, lineNo);
  }

  private readZgcCycle(event: GcEvent, m: RegExpExecArray, line: string, lineNo: number): void {
    const after = sizeOf(m[5] ?? '') ?? 0;
    const share = Number(m[6]) / 100;
    const before = sizeOf(m[3] ?? '') ?? 0;
    const beforeShare = Number(m[4]) / 100;
    // Without a "Max Capacity" line, the fuller of the two figures gives the capacity most exactly.
    const estimate =
      beforeShare >= share && beforeShare > 0 ? before / beforeShare : share > 0 ? after / share : 0;
    Object.assign(event, {
      afterBytes: after,
      capacityBytes: this.maxHeapBytes ?? Math.round(estimate),
      statedShare: share,
      shareOf: 'heap',
      wholeHeap: m[2] !== 'Minor',
      line: lineNo,
      text: line,
    });
  }

  private setHeap(
    event: GcEvent,
    line: string,
    lineNo: number,
    figures: { after?: string; capacity?: string },
    full: boolean,
  ): void {
    event.afterBytes = sizeOf(figures.after ?? '');
    event.capacityBytes = sizeOf(figures.capacity ?? '');
    event.full ||= full;
    event.wholeHeap ||= full;
    event.line = lineNo;
    event.text = line;
  }

  private readPauseOnly(event: GcEvent, line: string): void {
    const pause = PAUSE_ONLY.exec(line);
    if (pause) event.pauseSeconds = (event.pauseSeconds ?? 0) + Number(pause[2]) / 1000;
  }
}
