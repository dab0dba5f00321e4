import { sizeOf } from './common.ts';
import type { EmitGcEvent, GcEvent, GcLineReader } from './gc-log-event.ts';

/**
 * JDK 8 -XX:+PrintGCDetails: "1700.401: [Full GC (Ergonomics) ..." or "[GC pause (G1 Evacuation Pause)",
 * stamped with the uptime (-XX:+PrintGCTimeStamps, implied by -Xloggc), the date only
 * (-XX:+PrintGCDateStamps: "2021-02-24T07:02:08.375+0800: [GC (Allocation Failure) ..."), or nothing
 * (-XX:+PrintGCDetails alone on stdout: "[GC [ParNew: ..."). CMS's stop-the-world marks ("[GC (CMS
 * Initial Mark)", "(CMS Final Remark)") count as pauses; its concurrent phases ("[CMS-concurrent-mark")
 * do not start with "[GC", and G1's "[GC concurrent-..." are left out.
 */
const JDK8_START =
  /(?:^|\s)(?:(\d+\.\d+)|(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})([+-]\d\d)(\d\d)): \[(Full GC|GC)(?! concurrent)/;
/** An event line with no stamp at all: the line starts with the bracket. */
const UNSTAMPED_START = /^\[(Full GC|GC)(?=[ (])(?! concurrent)/;

/** Whether a line starts a JDK 8 GC event. */
export function jdk8GcLine(line: string): boolean {
  return JDK8_START.test(line) || UNSTAMPED_START.test(line);
}
/**
 * CMS and Serial collect the old generation inside a "[GC" event when promotion fails, and CMS falls
 * back to a stop-the-world collection on a "concurrent mode failure": "[CMS: 328412K->312126K(349568K),
 * 0.0522486 secs]", " (concurrent mode failure): 309910K->289393K(349568K), 0.0562658 secs]". Either
 * collects the whole heap, like a Full GC.
 */
const OLD_COLLECTED =
  /(?:\[(?:CMS|Tenured)|\(concurrent mode failure\)): (\d{1,15})K->(\d{1,15})K\((\d{1,15})K\), \d+\.\d+ secs\]/;

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

/** JDK 8's -XX:+PrintGCDetails (Parallel, Serial, CMS, G1); an event may spread over several lines. */
export class Jdk8GcReader implements GcLineReader {
  private current?: GcEvent;
  private clockStart?: number;
  /** Whether any event carried a stamp: without, the log cannot say how long it covers. */
  timed = false;

  constructor(private readonly emit: EmitGcEvent) {}

  push(line: string, lineNo: number): void {
    const start = line.includes('[') ? this.start(line) : undefined;
    if (start) {
      this.flush();
      const full = start.kind === 'Full GC';
      this.current = { uptime: start.seconds, full, wholeHeap: full, line: lineNo, text: line };
    }
    if (this.current && (line.includes('->') || line.includes('secs'))) this.fill(this.current, line);
  }

  private start(line: string): { kind: string; seconds: number } | undefined {
    const m = JDK8_START.exec(line);
    if (m) {
      this.timed = true;
      return { kind: m[5] ?? '', seconds: m[1] !== undefined ? Number(m[1]) : this.sinceFirstDate(m) };
    }
    const bare = UNSTAMPED_START.exec(line);
    return bare ? { kind: bare[1] ?? '', seconds: 0 } : undefined;
  }

  /** A date stamp as seconds since the first one. */
  private sinceFirstDate(m: RegExpExecArray): number {
    const at = Date.parse(`${m[2]}${m[3]}:${m[4]}`) / 1000;
    if (Number.isNaN(at)) return 0;
    this.clockStart ??= at;
    return at - this.clockStart;
  }

  flush(): void {
    if (this.current) this.emit(this.current);
    this.current = undefined;
  }

  /** Heap and pause figures as they come (G1 details spread them over lines). */
  private fill(event: GcEvent, line: string): void {
    // Generation brackets hold their own transitions; the whole-heap one is what is left outside them.
    const outside = line.includes('[') ? line.replace(GENERATION, '') : line;
    if (event.afterBytes === undefined) this.fillHeap(event, line, outside);
    const real = REAL.exec(line);
    if (real) event.pauseSeconds = Number(real[1]);
    else if (event.pauseSeconds === undefined) {
      const secs = SECS.exec(outside);
      if (secs) event.pauseSeconds = Number(secs[1]);
    }
  }

  private fillHeap(event: GcEvent, line: string, outsideGenerations: string): void {
    const collected = OLD_COLLECTED.exec(line);
    if (collected) {
      event.full = true;
      event.wholeHeap = true;
      event.statedShare = Number(collected[2]) / Number(collected[3]);
      event.shareOf = 'old generation';
    }
    const outside = collected ? outsideGenerations.replace(OLD_COLLECTED, '') : outsideGenerations;
    const old = OLD_GEN.exec(line);
    if (old) {
      event.statedShare = Number(old[2]) / Number(old[3]);
      event.shareOf = 'old generation';
    }
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
}
