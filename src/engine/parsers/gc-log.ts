import type { Fact } from '../facts.ts';
import { formatSize } from '../units.ts';
import { fact, output, parseFailed, percent, sizeOf } from './common.ts';
import type { Parser, ParserRun } from './types.ts';

/** JDK 8 -XX:+PrintGCDetails: "1700.401: [Full GC (Ergonomics) ..." or "[GC pause (G1 Evacuation Pause)". */
const JDK8_START = /(?:^|\s)(\d+\.\d+): \[(Full GC|GC)(?! concurrent)/;
/*
 * The regexes below are linear on any line: each repetition is bounded, or a match may start only at
 * the first digit of a run (`(?<!\d)`), or a name ends where its letters do (`(?![A-Za-z])`). Without
 * that, a 100k-character line of digits or of repeated "GC(1) Pause Young" took seconds.
 */
/** A generation's own bracket; bounded, as the longest real one (CMS with a failure note) is ~120 characters. */
const GENERATION =
  /\[(PSYoungGen|ParOldGen|PSOldGen|DefNew|ParNew|Tenured|CMS|Metaspace|PSPermGen|Perm|CMS Perm|Class Space)[^\]]{0,300}\]/g;
const OLD_GEN = /\[(?:ParOldGen|PSOldGen|Tenured|CMS): (\d+)K->(\d+)K\((\d+)K\)\]/;
const TRANSITION = /(?<!\d)(\d+(?:\.\d+)?[KMG])->(\d+(?:\.\d+)?[KMG])\((\d+(?:\.\d+)?[KMG])\)/;
const G1_HEAP = /Heap: ([\d.]+[KMG]?B?)\(([\d.]+[KMG]?B?)\)->([\d.]+[KMG]?B?)\(([\d.]+[KMG]?B?)\)/;
const REAL = /real=(\d+\.\d+) secs/;
const SECS = /, (\d+\.\d+) secs\]/;
/** JDK 9+ -Xlog:gc*: "[455438.207s][info][gc] GC(17238) Pause Young (Normal) (...) 21253M->20265M(21504M) 24.603ms". */
const UNIFIED =
  /GC\((\d+)\)\s+(Pause [A-Za-z]+)(?![A-Za-z])[^\n]{0,200}?\s(\d{1,15}[KMG])->(\d{1,15}[KMG])\((\d{1,15}[KMG])\)\s+(\d+(?:\.\d+)?)ms/;
const UPTIME = /\[(\d+(?:\.\d+)?)s\]/;
const OVERHEAD = /GC overhead limit exceeded/i;
/** Unified logging's start-up lines, printed before the first pause: "[0.004s][info][gc] Using G1". */
const UNIFIED_INIT = /\]\[gc(?:,init)?\s*\] (?:Using |Version: |Heap Max Capacity)/;

interface GcEvent {
  uptime: number;
  full: boolean;
  pauseSeconds?: number;
  afterBytes?: number;
  capacityBytes?: number;
  oldAfterShare?: number;
  line: number;
  text: string;
}

/** A floor that climbs across full GCs: the live set keeps growing. */
function rising(values: readonly number[]): boolean {
  if (values.length < 3) return false;
  const first = values[0] ?? 0;
  const last = values[values.length - 1] ?? 0;
  let ups = 0;
  for (let i = 1; i < values.length; i++) if ((values[i] ?? 0) >= (values[i - 1] ?? 0)) ups++;
  return last > first * 1.1 && ups >= ((values.length - 1) * 2) / 3;
}

/** Full GCs whose leftover heap is kept for the floor trend; beyond this the trend uses the first ones. */
const MAX_FLOORS = 100_000;

/** Totals over every pause, kept as the log streams by so memory stays flat on a multi-GiB log. */
interface Totals {
  events: number;
  fulls: number;
  pause: number;
  firstUptime: number;
  lastUptime: number;
  lastPause: number;
  capacity: number;
  floors: number[];
  /** Full GC events, one per floor, to name the line of the highest one. */
  fullEvents: GcEvent[];
  first?: GcEvent;
  lastFull?: GcEvent;
  /** Whether the log has unified logging's start-up lines ("Using G1", "[gc,init]"): a GC log yet. */
  initSeen?: boolean;
}

class GcLogRun implements ParserRun {
  private readonly t: Totals = {
    events: 0,
    fulls: 0,
    pause: 0,
    firstUptime: 0,
    lastUptime: 0,
    lastPause: 0,
    capacity: 0,
    floors: [],
    fullEvents: [],
  };
  private current?: GcEvent;
  private format?: 'jdk8' | 'unified';
  private overhead?: Fact;

  push(line: string, lineNo: number): void {
    if (!this.t.initSeen && line.includes('][gc') && UNIFIED_INIT.test(line)) this.t.initSeen = true;
    // Cheap substring checks first: most lines of a detailed GC log are phases and region counts.
    if (line.includes('overhead') && OVERHEAD.test(line))
      this.overhead ??= fact('oom.gc-overhead', lineNo, line);
    const unified = line.includes('Pause') && line.includes('->') ? UNIFIED.exec(line) : null;
    if (unified) {
      this.format = 'unified';
      this.commit();
      this.current = {
        uptime: Number(UPTIME.exec(line)?.[1] ?? 0),
        full: /Pause Full/.test(unified[2] ?? ''),
        pauseSeconds: Number(unified[6]) / 1000,
        afterBytes: sizeOf(unified[4] ?? ''),
        capacityBytes: sizeOf(unified[5] ?? ''),
        line: lineNo,
        text: line,
      };
      this.commit();
      return;
    }
    const start = line.includes(': [') ? JDK8_START.exec(line) : null;
    if (start) {
      this.format = 'jdk8';
      this.commit();
      this.current = { uptime: Number(start[1]), full: start[2] === 'Full GC', line: lineNo, text: line };
    }
    if (this.current && (line.includes('->') || line.includes('secs'))) this.fill(this.current, line);
  }

  /** Folds the finished event into the totals. */
  private commit(): void {
    const e = this.current;
    if (!e) return;
    this.current = undefined;
    const t = this.t;
    if (t.events === 0) {
      t.first = e;
      t.firstUptime = e.uptime;
    }
    t.events++;
    t.pause += e.pauseSeconds ?? 0;
    t.lastUptime = e.uptime;
    t.lastPause = e.pauseSeconds ?? 0;
    t.capacity = Math.max(t.capacity, e.capacityBytes ?? 0);
    if (!e.full) return;
    t.fulls++;
    t.lastFull = e;
    if (e.afterBytes !== undefined && t.floors.length < MAX_FLOORS) {
      t.floors.push(e.afterBytes);
      t.fullEvents.push(e);
    }
  }

  /** JDK 8 events may spread over lines (G1 details): take heap and pause figures as they come. */
  private fill(event: GcEvent, line: string): void {
    // Generation brackets hold their own transitions; the whole-heap one is what is left outside them.
    const outside = line.includes('[') ? line.replace(GENERATION, '') : line;
    if (event.afterBytes === undefined) {
      const old = OLD_GEN.exec(line);
      if (old) event.oldAfterShare = Number(old[2]) / Number(old[3]);
      const g1 = G1_HEAP.exec(line);
      const t = g1 ? undefined : TRANSITION.exec(outside);
      if (g1) {
        event.afterBytes = sizeOf(g1[3] ?? '');
        event.capacityBytes = sizeOf(g1[4] ?? '');
      } else if (t) {
        event.afterBytes = sizeOf(t[2] ?? '');
        event.capacityBytes = sizeOf(t[3] ?? '');
      }
    }
    const real = REAL.exec(line);
    if (real) event.pauseSeconds = Number(real[1]);
    else if (event.pauseSeconds === undefined) {
      const secs = SECS.exec(outside);
      if (secs) event.pauseSeconds = Number(secs[1]);
    }
  }

  finish() {
    this.commit();
    const t = this.t;
    const first = t.first;
    if (!first && t.initSeen)
      throw parseFailed(
        "GC pauses: this log has only the JVM's start-up lines, so no collection has run yet. Paste the log from the hours when memory was high.",
      );
    if (!first)
      throw parseFailed(
        'GC events like "[Full GC (Ergonomics) ...]" (JDK 8 -XX:+PrintGCDetails) or "GC(12) Pause Young ... 512M->128M(1024M) 3.2ms" (-Xlog:gc).',
      );
    const span = t.events > 1 ? t.lastUptime - t.firstUptime + t.lastPause : t.lastUptime;
    const share = span > 0 ? Math.min(1, t.pause / span) : 0;
    const lastFull = t.lastFull;
    const peak = this.fullGcLeavingMostLive();
    const values: Record<string, number | string | boolean> = {
      format: this.format ?? 'jdk8',
      gcEvents: t.events,
      fullGcCount: t.fulls,
      totalPauseSeconds: Number(t.pause.toFixed(3)),
      elapsedSeconds: Number(span.toFixed(3)),
      gcTimeShare: Number(share.toFixed(4)),
      heapCapacityBytes: t.capacity,
      firstHeapAfterFullGcBytes: t.floors[0] ?? 0,
      lastHeapAfterFullGcBytes: lastFull?.afterBytes ?? 0,
      // The climb up to the highest floor: after an OutOfMemoryError unwinds, a last full GC may free
      // everything, which says nothing about the live data before it.
      heapFloorRising: rising(t.floors.slice(0, peak ? peak.index + 1 : 0)),
      gcOverheadLimit: this.overhead !== undefined,
    };
    // Without a full GC nothing says how much is live: leave the share out rather than report 0.
    if (peak) {
      values.heapAfterFullGcShare = Number(peak.share.toFixed(4));
      values.peakHeapAfterFullGcBytes = peak.event.afterBytes ?? 0;
    }
    const facts: Fact[] = this.overhead ? [this.overhead] : [];
    const verdict = this.verdict(
      { heapFloorRising: values.heapFloorRising === true, peakShare: peak?.share ?? 0, gcTimeShare: share },
      facts,
      peak?.event,
    );
    const floor = peak
      ? `; the most left after a full GC was ${formatSize(peak.event.afterBytes ?? 0)} (${percent(peak.share)} of the ${peak.event.oldAfterShare === undefined ? 'heap' : 'old generation'})`
      : '; no full GC, so the live data is not known';
    const summary = `${t.events} GC pauses (${t.fulls} full) took ${percent(share)} of ${values.elapsedSeconds}s${floor}; heap ${formatSize(t.capacity)}.`;
    return output('gc-log', values, summary, facts, verdict, first?.line ?? 1);
  }

  /** The (latest) full GC that left the largest share of the heap in use (old generation on JDK 8). */
  private fullGcLeavingMostLive(): { event: GcEvent; share: number; index: number } | undefined {
    let best: { event: GcEvent; share: number; index: number } | undefined;
    this.t.fullEvents.forEach((event, index) => {
      const capacity = event.capacityBytes || this.t.capacity;
      const share = event.oldAfterShare ?? (capacity ? (event.afterBytes ?? 0) / capacity : 0);
      if (!best || share >= best.share) best = { event, share, index };
    });
    return best;
  }

  private verdict(
    v: { heapFloorRising: boolean; peakShare: number; gcTimeShare: number },
    facts: Fact[],
    peak?: GcEvent,
  ): string {
    const { first } = this.t;
    if (v.heapFloorRising && peak) {
      facts.push(fact('gc.heap-floor-rising', peak.line, peak.text));
      return 'leak likely: the heap left after each full GC keeps rising';
    }
    if (v.peakShare >= 0.9 && peak) {
      facts.push(
        fact('gc.heap-full-after-gc', peak.line, peak.text, { share: Number(v.peakShare.toFixed(4)) }),
      );
      return 'live data fills the heap: full GCs free almost nothing';
    }
    if (v.gcTimeShare >= 0.1 && first) {
      facts.push(fact('gc.time-share-high', first.line, first.text, { share: v.gcTimeShare }));
      return `GC overhead high: ${percent(v.gcTimeShare)} of the time in pauses`;
    }
    return this.t.fulls > 0 ? 'full GCs present, heap recovers' : 'GC healthy';
  }
}

/** GC logs: JDK 8 -XX:+PrintGCDetails and JDK 9+ -Xlog:gc*. */
export const gcLogParser: Parser = {
  id: 'gc-log',
  title: 'GC log',
  howToGet: 'the JVM GC log (-Xlog:gc*:file=gc.log on JDK 9+, -XX:+PrintGCDetails -Xloggc:gc.log on JDK 8)',
  detect: (head) =>
    head.some(
      (l) =>
        JDK8_START.test(l) ||
        UNIFIED.test(l) ||
        /\]\[gc(?:,start)?\s*\] GC\(\d+\)/.test(l) ||
        UNIFIED_INIT.test(l),
    ),
  create: () => new GcLogRun(),
};
