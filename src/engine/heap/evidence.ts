import type { FactValue } from '../facts.ts';
import { formatSize } from '../units.ts';
import { holderOf } from './holders.ts';
import { frameText, type HeapReport } from './report.ts';

/** A fact the heap analysis gives, with the evidence line (1-based) that states it. */
export interface HeapFact {
  kind: string;
  values: Record<string, FactValue>;
  line: number;
}

/**
 * The heap report as evidence a diagnosis cites: one line per statement, made only of class and
 * field names, counts, sizes, thread names and frames. Facts: `heap-dump.suspect` per suspect,
 * `heap-dump.leak` (on the line of the biggest single-object suspect, MAT's) or `heap-dump.peak` (no
 * single holder), `heap-dump.oom-thread`, `heap-dump.holder` for a well-known holder (holders.ts),
 * `heap-dump.classloader-leak` for a class defined by many loaders, `heap-dump.cut-short`,
 * and the engine facts (`engine.spark`...) the classes name.
 */
export function heapEvidence(report: HeapReport): { lines: string[]; facts: HeapFact[] } {
  const out = new EvidenceLines();
  const { heap, dump } = report;
  out.say(
    `heap dump: ${heap.objects} objects, ${formatSize(heap.bytes)} reachable from the GC roots; ${heap.unreachable.objects} unreachable objects (${formatSize(heap.unreachable.bytes)}) left out; sizes assume ${dump.sizes}`,
    'heap-dump.read',
    { bytes: heap.bytes, objects: heap.objects },
  );
  if (!dump.complete) {
    const text = `heap dump cut short: read to byte ${dump.bytesRead}: ${dump.endReason ?? ''}`;
    out.say(text, 'heap-dump.cut-short', { offset: dump.bytesRead });
  }
  if (report.oomThread) {
    const top = report.oomThread.frames.find((f) => f.className !== 'java.lang.OutOfMemoryError');
    const text = `OutOfMemoryError thrown in thread "${report.oomThread.name}"${top ? ` at ${frameText(top)}` : ''}`;
    out.say(text, 'heap-dump.oom-thread', { thread: report.oomThread.name });
  }
  suspectLines(out, report.suspects);
  for (const dup of report.duplicateClasses)
    out.say(
      `class ${dup.className} is defined by ${dup.loaders} class loaders: code loaded again while the old loaders stay reachable`,
      'heap-dump.classloader-leak',
      { class: dup.className, loaders: dup.loaders },
    );
  for (const system of report.systems)
    out.say(`${system.classes} classes of ${system.prefix.slice(0, -1)} loaded`, system.fact);
  return { lines: out.lines, facts: out.facts };
}

class EvidenceLines {
  readonly lines: string[] = [];
  readonly facts: HeapFact[] = [];

  say(text: string, kind?: string, values: Record<string, FactValue> = {}): void {
    this.lines.push(text);
    if (kind) this.facts.push({ kind, values, line: this.lines.length });
  }

  /** A second fact on the line said last. */
  alsoOnLastLine(kind: string, values: Record<string, FactValue>): void {
    this.facts.push({ kind, values, line: this.lines.length });
  }
}

/** The suspects; the leak fact sits on the biggest single holder's line, so a diagnosis citing the leak cites it. */
function suspectLines(out: EvidenceLines, suspects: HeapReport['suspects']): void {
  let leakStated = false;
  const named = new Set<string>();
  for (const s of suspects) {
    const values = { class: s.className, retained: s.retainedBytes, percent: s.percent, kind: s.kind };
    out.say(`dominator: ${s.summary}`, 'heap-dump.suspect', values);
    if (s.kind === 'object' && !leakStated) {
      out.alsoOnLastLine('heap-dump.leak', { class: s.className, percent: s.percent });
      leakStated = true;
    }
    const acc = s.accumulation;
    if (acc && acc.className !== s.className) {
      const via = acc.via ? ` (${acc.via.startsWith('.') ? acc.via.slice(1) : acc.via})` : '';
      out.say(`accumulated in ${acc.className}${via}: ${formatSize(acc.retainedBytes)}`);
    }
    const holder = holderOf(s);
    // Said once per holder: four threads with the same ThreadLocal make one statement, not four.
    if (holder && !named.has(holder.id)) {
      named.add(holder.id);
      out.say(`known holder: ${holder.what} (${holder.source.split(/, |; /)[0]})`, 'heap-dump.holder', {
        holder: holder.id,
      });
    }
  }
  if (!leakStated)
    out.say(
      'no single object holds a tenth of the heap: many holders at a peak, not one leak',
      'heap-dump.peak',
    );
}
