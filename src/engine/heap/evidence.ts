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
 * single holder), `heap-dump.oom-thread`, `heap-dump.holder` for a well-known holder, `heap-dump.cut-short`,
 * and the engine facts (`engine.spark`...) the classes name.
 */
export function heapEvidence(report: HeapReport): { lines: string[]; facts: HeapFact[] } {
  const lines: string[] = [];
  const facts: HeapFact[] = [];
  const say = (text: string, kind?: string, values: Record<string, FactValue> = {}) => {
    lines.push(text);
    if (kind) facts.push({ kind, values, line: lines.length });
  };
  const { heap, dump } = report;
  say(
    `heap dump: ${heap.objects} objects, ${formatSize(heap.bytes)} reachable from the GC roots; ${heap.unreachable.objects} unreachable objects (${formatSize(heap.unreachable.bytes)}) left out; sizes assume ${dump.sizes}`,
    'heap-dump.read',
    { bytes: heap.bytes, objects: heap.objects },
  );
  if (!dump.complete)
    say(
      `heap dump cut short: read to byte ${dump.bytesRead}: ${dump.endReason ?? ''}`,
      'heap-dump.cut-short',
      { offset: dump.bytesRead },
    );
  if (report.oomThread) {
    const top = report.oomThread.frames.find((f) => f.className !== 'java.lang.OutOfMemoryError');
    say(
      `OutOfMemoryError thrown in thread "${report.oomThread.name}"${top ? ` at ${frameText(top)}` : ''}`,
      'heap-dump.oom-thread',
      { thread: report.oomThread.name },
    );
  }
  // The leak fact sits on the biggest single holder's line, so a diagnosis citing the leak cites it.
  let leakStated = false;
  for (const s of report.suspects) {
    say(`dominator: ${s.summary}`, 'heap-dump.suspect', {
      class: s.className,
      retained: s.retainedBytes,
      percent: s.percent,
      kind: s.kind,
    });
    if (s.kind === 'object' && !leakStated) {
      facts.push({
        kind: 'heap-dump.leak',
        values: { class: s.className, percent: s.percent },
        line: lines.length,
      });
      leakStated = true;
    }
    if (s.accumulation && s.accumulation.className !== s.className) {
      say(
        `accumulated in ${s.accumulation.className}${s.accumulation.via ? ` (${s.accumulation.via.replace(/^\./, '')})` : ''}: ${formatSize(s.accumulation.retainedBytes)}`,
      );
    }
    const holder = holderOf(s.accumulation?.dominatorPath ?? [s.className]);
    if (holder) say(`${holder.what} holds it (${holder.source})`, 'heap-dump.holder', { holder: holder.id });
  }
  if (!leakStated)
    say('no single object holds a tenth of the heap: many holders at a peak, not one leak', 'heap-dump.peak');
  for (const system of report.systems)
    say(`${system.classes} classes of ${system.prefix.slice(0, -1)} loaded`, system.fact);
  return { lines, facts };
}
