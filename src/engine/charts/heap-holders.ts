import type { HeapReport } from '../heap/index.ts';
import type { Bar, BarsChartData } from './types.ts';

/** Holders drawn: the suspects MAT's rules find are few; a histogram is cut to its head. */
const MAX_HOLDERS = 8;
/** A class name longer than this keeps its tail, where the class itself is named. */
const MAX_LABEL = 28;

function labelOf(className: string, instances?: number, thread?: string): string {
  // Threads hold alike: their names tell the bars apart, the package does not.
  const shown = thread ? `${className.slice(className.lastIndexOf('.') + 1)} "${thread}"` : className;
  const name = shown.length > MAX_LABEL ? `…${shown.slice(-(MAX_LABEL - 1))}` : shown;
  return instances !== undefined && instances > 1 ? `${name} (${instances})` : name;
}

/**
 * A heap dump's biggest holders: each leak suspect and what it retains, against the reachable heap;
 * with no suspect, the classes whose instances take the most (shallow) bytes. Read from the
 * analysis' report only.
 */
export function heapHoldersChart(report: HeapReport): BarsChartData | undefined {
  const suspects = report.suspects.slice(0, MAX_HOLDERS);
  const bars: Bar[] = suspects.length
    ? suspects.map((s, i) => ({
        label: labelOf(s.className, s.kind === 'class' ? s.instances : undefined, s.root?.thread),
        bytes: s.retainedBytes,
        ...(i === 0 ? { emphasis: true } : {}),
      }))
    : report.histogram
        .slice(0, MAX_HOLDERS)
        .map((h) => ({ label: labelOf(h.className, h.instances), bytes: h.shallowBytes }));
  if (bars.length === 0 || report.heap.bytes <= 0) return undefined;
  const top = suspects[0];
  return {
    kind: 'bars',
    id: 'heap-holders',
    title: suspects.length
      ? 'Heap dump: what the leak suspects retain'
      : 'Heap dump: the classes taking the most heap (shallow size)',
    valueLabel: suspects.length ? 'retained' : 'shallow size of all instances',
    bars,
    limitBytes: report.heap.bytes,
    limitLabel: 'reachable heap',
    verdict: top ? top.summary : 'no single object or class holds most of the heap',
  };
}
