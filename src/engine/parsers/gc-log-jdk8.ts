import { sizeOf } from './common.ts';
import type { EmitGcEvent, GcEvent, GcLineReader } from './gc-log-event.ts';

/**
 * JDK 8 -XX:+PrintGCDetails: "1700.401: [Full GC (Ergonomics) ..." or "[GC pause (G1 Evacuation Pause)".
 * CMS's stop-the-world marks ("[GC (CMS Initial Mark)", "(CMS Final Remark)") count as pauses; its
 * concurrent phases ("[CMS-concurrent-mark") do not start with "[GC" and G1's "[GC concurrent-" are left out.
 */
export const JDK8_START = /(?:^|\s)(\d+\.\d+): \[(Full GC|GC)(?! concurrent)/;
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

  constructor(private readonly emit: EmitGcEvent) {}

  push(line: string, lineNo: number): void {
    const start = line.includes(': [') ? JDK8_START.exec(line) : null;
    if (start) {
      this.flush();
      const full = start[2] === 'Full GC';
      this.current = { uptime: Number(start[1]), full, wholeHeap: full, line: lineNo, text: line };
    }
    if (this.current && (line.includes('->') || line.includes('secs'))) this.fill(this.current, line);
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

  private fillHeap(event: GcEvent, line: string, outside: string): void {
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
