import { StreamingSeries } from '../charts/downsample.ts';
import type { ChartData } from '../charts/types.ts';
import type { Fact } from '../facts.ts';
import { formatSize } from '../units.ts';
import { fact, output, parseFailed, percent } from './common.ts';
import type { GcEvent } from './gc-log-event.ts';
import { Jdk8GcReader, jdk8GcLine } from './gc-log-jdk8.ts';
import { UnifiedGcReader, unifiedGcLine } from './gc-log-unified.ts';
import type { Parser, ParserRun } from './types.ts';

const OVERHEAD = /GC overhead limit exceeded/i;

/** A floor that climbs across whole-heap collections: the live set keeps growing. */
function rising(values: readonly number[]): boolean {
  if (values.length < 3) return false;
  const first = values[0] ?? 0;
  const last = values[values.length - 1] ?? 0;
  let ups = 0;
  for (let i = 1; i < values.length; i++) if ((values[i] ?? 0) >= (values[i - 1] ?? 0)) ups++;
  return last > first * 1.1 && ups >= ((values.length - 1) * 2) / 3;
}

/** Whole-heap collections in a row at the end of the log that must each leave the heap this full. */
const EXHAUSTED_RUN = 3;
const EXHAUSTED_SHARE = 0.9;

/** Whole-heap collections whose leftover heap is kept for the floor trend; beyond this the first ones. */
const MAX_FLOORS = 100_000;
/** Points of the heap-after-GC series kept for the chart (the extremes of each run survive). */
const CHART_POINTS = 2000;

/** Totals over every collection, kept as the log streams by so memory stays flat on a multi-GiB log. */
interface Totals {
  events: number;
  fulls: number;
  pause: number;
  firstUptime: number;
  lastUptime: number;
  lastPause: number;
  capacity: number;
  /** What each whole-heap collection left (full GCs; ZGC and Shenandoah cycles): the live data. */
  floors: number[];
  /** The collections behind `floors`, one each, to name the line of the fullest one. */
  floorEvents: GcEvent[];
  first?: GcEvent;
  lastFloor?: GcEvent;
}

/** The whole-heap collection that left the largest share of the heap in use, and where it stands. */
interface FullestAfterCollection {
  event: GcEvent;
  share: number;
  index: number;
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
    floorEvents: [],
  };
  private readonly formats = new Set<'jdk8' | 'unified'>();
  private readonly unified = new UnifiedGcReader((e) => this.add(e, 'unified'));
  private readonly jdk8 = new Jdk8GcReader((e) => this.add(e, 'jdk8'));
  private overhead?: Fact;
  /**
   * Heap after every collection, thinned as it streams, for the chart: by time, and by the
   * collection's number for a log whose lines carry no time (known only at the end).
   */
  private readonly afterByTime = new StreamingSeries(CHART_POINTS);
  private readonly afterByCount = new StreamingSeries(CHART_POINTS);
  /** The collection number of each kept floor. */
  private readonly floorCounts: number[] = [];

  push(line: string, lineNo: number): void {
    if (line.includes('overhead') && OVERHEAD.test(line))
      this.overhead ??= fact('oom.gc-overhead', lineNo, line);
    this.unified.push(line, lineNo);
    this.jdk8.push(line, lineNo);
  }

  /** Folds one finished collection into the totals. */
  private add(e: GcEvent, format: 'jdk8' | 'unified'): void {
    this.formats.add(format);
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
    if (e.full) t.fulls++;
    if (e.afterBytes !== undefined) {
      this.afterByTime.push({ t: e.uptime, bytes: e.afterBytes });
      this.afterByCount.push({ t: t.events, bytes: e.afterBytes });
    }
    if (!e.wholeHeap || e.afterBytes === undefined) return;
    t.lastFloor = e;
    if (t.floors.length < MAX_FLOORS) {
      t.floors.push(e.afterBytes);
      t.floorEvents.push(e);
      this.floorCounts.push(t.events);
    }
  }

  finish() {
    this.unified.flush();
    this.jdk8.flush();
    const t = this.t;
    const first = t.first;
    if (!first) this.refuse();
    // Threads stalled on ZGC lost that time as surely as in a pause.
    const pause = t.pause + this.unified.stallSeconds;
    const span = t.events > 1 ? t.lastUptime - t.firstUptime + t.lastPause : t.lastUptime;
    const share = this.timed() && span > 0 ? Math.min(1, pause / span) : 0;
    const fullest = this.fullestAfterWholeHeapCollection();
    const values = this.values(pause, span, share, fullest);
    const facts: Fact[] = this.overhead ? [this.overhead] : [];
    const verdict = this.verdict(
      {
        heapFloorRising: values.heapFloorRising === true,
        peakShare: fullest?.share ?? 0,
        gcTimeShare: share,
      },
      facts,
      fullest?.event,
    );
    const took = this.timed()
      ? `took ${percent(share)} of ${values.elapsedSeconds}s`
      : 'took a share of the time the log cannot tell (its lines carry no time)';
    this.exhaustion(facts);
    const summary = `${t.events} GC ${t.events === 1 ? 'collection' : 'collections'} (${t.fulls} full) ${took}${this.floorText(fullest)}; ${this.heapText()}.`;
    const out = output('gc-log', values, summary, facts, verdict, first?.line ?? 1);
    return { ...out, chart: this.chart(values.heapFloorRising === true, verdict) };
  }

  private chart(floorRising: boolean, verdict: string): ChartData {
    const max = this.unified.maxHeapBytes;
    const timed = this.timed();
    const floors = this.t.floorEvents.map((e, i) => ({
      t: timed ? e.uptime : (this.floorCounts[i] ?? 0),
      bytes: e.afterBytes ?? 0,
    }));
    const limit = max ?? (this.t.capacity || undefined);
    return {
      kind: 'gc-heap',
      after: (timed ? this.afterByTime : this.afterByCount).values(),
      floors,
      ...(limit !== undefined ? { limitBytes: limit } : {}),
      limitLabel: max ? 'maximum heap' : 'largest heap size in the log',
      timed,
      floorRising,
      verdict,
    };
  }

  /** Whether the events carry times: JDK 8 stamps (-XX:+PrintGCTimeStamps/DateStamps), unified decorators. */
  private timed(): boolean {
    return this.formats.has('unified') ? this.unified.timed : this.jdk8.timed;
  }

  /**
   * The heap is exhausted when the log ends in whole-heap collections that each left it nearly full:
   * HotSpot throws "Java heap space" once a full collection cannot make room for an allocation (and
   * Parallel's GC overhead limit once collections recover under 2% of the heap), so collections
   * back to back that free under a tenth of it are what precedes the error, even where the log holds
   * no exception line. Three in a row, so one full collection at a peak of live data does not count.
   */
  private exhaustion(facts: Fact[]): void {
    const last = this.t.floorEvents.slice(-EXHAUSTED_RUN);
    if (last.length < EXHAUSTED_RUN) return;
    const shares = last.map((e) => this.shareLeft(e));
    if (shares.some((s) => s < EXHAUSTED_SHARE)) return;
    const end = last[last.length - 1] as GcEvent;
    facts.push(
      fact('oom.heap-exhausted', end.line, end.text, {
        share: Number(Math.min(...shares).toFixed(4)),
        collections: this.t.floors.length,
        source: 'gc-log',
      }),
    );
  }

  /**
   * The share of the heap a collection left in use, of the most the heap may grow to: HotSpot grows the
   * committed heap up to -Xmx before it throws, so dividing by the size committed at that collection
   * (42 MB of a 64 MB heap, say) overstates how full it was. Without the stated maximum, the largest
   * size the log shows stands in for it.
   */
  private shareLeft(event: GcEvent): number {
    const capacity = this.heapLimit();
    return event.statedShare ?? (capacity ? (event.afterBytes ?? 0) / capacity : 0);
  }

  private heapLimit(): number {
    return this.unified.maxHeapBytes ?? this.t.capacity;
  }

  private refuse(): never {
    if (this.unified.initSeen)
      throw parseFailed(
        "GC pauses: this log has only the JVM's start-up lines, so no collection has run yet. Paste the log from the hours when memory was high.",
      );
    throw parseFailed(
      'GC events like "[Full GC (Ergonomics) ...]" (JDK 8 -XX:+PrintGCDetails) or "GC(12) Pause Young ... 512M->128M(1024M) 3.2ms" (-Xlog:gc).',
    );
  }

  private values(
    pause: number,
    span: number,
    share: number,
    fullest?: FullestAfterCollection,
  ): Record<string, number | string | boolean> {
    const t = this.t;
    const values: Record<string, number | string | boolean> = {
      format: this.formats.has('unified') ? 'unified' : 'jdk8',
      gcEvents: t.events,
      fullGcCount: t.fulls,
      wholeHeapCollections: t.floors.length,
      totalPauseSeconds: Number(pause.toFixed(3)),
      heapCapacityBytes: t.capacity,
      // "After full GC" is after any collection of the whole heap: ZGC and Shenandoah never run a full GC.
      firstHeapAfterFullGcBytes: t.floors[0] ?? 0,
      lastHeapAfterFullGcBytes: t.lastFloor?.afterBytes ?? 0,
      // The climb up to the fullest collection: after an OutOfMemoryError unwinds, a last full GC may
      // free everything, which says nothing about the live data before it.
      heapFloorRising: rising(t.floors.slice(0, fullest ? fullest.index + 1 : 0)),
      gcOverheadLimit: this.overhead !== undefined,
    };
    if (this.unified.collector) values.collector = this.unified.collector;
    if (this.unified.maxHeapBytes) values.maxHeapBytes = this.unified.maxHeapBytes;
    // A log without times cannot say what share of the time went to GC: left out, not 0.
    if (this.timed()) {
      values.elapsedSeconds = Number(span.toFixed(3));
      values.gcTimeShare = Number(share.toFixed(4));
    }
    // Without a whole-heap collection nothing says how much is live: leave the share out rather than report 0.
    if (fullest) {
      values.heapAfterFullGcShare = Number(fullest.share.toFixed(4));
      values.peakHeapAfterFullGcBytes = fullest.event.afterBytes ?? 0;
    }
    return values;
  }

  private heapText(): string {
    const max = this.unified.maxHeapBytes;
    return max ? `maximum heap ${formatSize(max)}` : `heap ${formatSize(this.t.capacity)}`;
  }

  private floorText(fullest?: FullestAfterCollection): string {
    if (!fullest) return '; no collection of the whole heap, so the live data is not known';
    const of =
      fullest.event.shareOf === 'old generation'
        ? 'old generation'
        : this.unified.maxHeapBytes
          ? 'maximum heap'
          : 'heap';
    return `; the most left after a whole-heap collection was ${formatSize(fullest.event.afterBytes ?? 0)} (${percent(fullest.share)} of the ${of})`;
  }

  /** The (latest) whole-heap collection that left the largest share in use (old generation on JDK 8). */
  private fullestAfterWholeHeapCollection(): FullestAfterCollection | undefined {
    let best: FullestAfterCollection | undefined;
    this.t.floorEvents.forEach((event, index) => {
      const share = this.shareLeft(event);
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
      return 'leak likely: the heap left after each whole-heap collection keeps rising';
    }
    if (v.peakShare >= 0.9 && peak) {
      facts.push(
        fact('gc.heap-full-after-gc', peak.line, peak.text, { share: Number(v.peakShare.toFixed(4)) }),
      );
      return 'live data fills the heap: collections of the whole heap free almost nothing';
    }
    if (v.gcTimeShare >= 0.1 && first) {
      facts.push(fact('gc.time-share-high', first.line, first.text, { share: v.gcTimeShare }));
      return `GC overhead high: ${percent(v.gcTimeShare)} of the time in pauses`;
    }
    return this.t.floors.length > 0 ? 'whole-heap collections present, heap recovers' : 'GC healthy';
  }
}

/** GC logs: JDK 8 -XX:+PrintGCDetails and JDK 9+ unified logging (-Xlog:gc, -Xlog:gc*), every collector. */
export const gcLogParser: Parser = {
  id: 'gc-log',
  title: 'GC log',
  howToGet: 'the JVM GC log (-Xlog:gc*:file=gc.log on JDK 9+, -XX:+PrintGCDetails -Xloggc:gc.log on JDK 8)',
  detect: (head) => head.some((l) => jdk8GcLine(l) || unifiedGcLine(l)),
  create: () => new GcLogRun(),
};
