import { formatSize } from '../units.ts';
import { shareBar, sparkline } from './sparkline.ts';
import type { ChartData, PeaksChartData } from './types.ts';

/** Bars beyond this are left to the full chart (`--chart DIR`). */
const MAX_ROWS = 10;

function rows(items: readonly { label: string; bytes: number }[], scale: number): string[] {
  const width = Math.min(28, Math.max(...items.map((i) => i.label.length)));
  return items
    .slice(0, MAX_ROWS)
    .map(
      (i) =>
        `  ${i.label.slice(0, width).padEnd(width)} ${shareBar(scale > 0 ? i.bytes / scale : 0, 24)} ${formatSize(i.bytes)}`,
    );
}

/** Every measured peak of every row, one bar each, scaled to the largest or the limit. */
function peakRows(data: PeaksChartData): string[] {
  const bars = data.rows.flatMap((r) =>
    r.values.flatMap((v, i) =>
      v === undefined ? [] : [{ label: `${r.label} ${data.measures[i]}`, bytes: v }],
    ),
  );
  return rows(bars, Math.max(data.limitBytes ?? 0, ...bars.map((b) => b.bytes)));
}

/**
 * The chart in a few lines of block characters, for a terminal: a sparkline of a series with its
 * range and limit, or one bar per size scaled to the largest (or to the limit).
 */
export function terminalLines(data: ChartData): string[] {
  switch (data.kind) {
    case 'gc-heap': {
      const ys = data.after.map((p) => p.bytes);
      if (ys.length < 2) return [];
      const limit =
        data.limitBytes !== undefined ? ` (${data.limitLabel} ${formatSize(data.limitBytes)})` : '';
      return [
        `heap after GC  ${sparkline(ys, 40)}  ${formatSize(Math.min(...ys))} .. ${formatSize(Math.max(...ys))}${limit}`,
      ];
    }
    case 'memory-samples': {
      const ys = data.points.map((p) => p.bytes);
      if (ys.length < 2) return [];
      const limit =
        data.limitBytes !== undefined
          ? ` (${data.limitLabel ?? 'limit'} ${formatSize(data.limitBytes)})`
          : '';
      return [
        `samples  ${sparkline(ys, 40)}  ${formatSize(Math.min(...ys))} .. ${formatSize(Math.max(...ys))}${limit}`,
      ];
    }
    case 'bars': {
      const bars = [...data.bars].sort((a, b) => b.bytes - a.bytes);
      return rows(bars, Math.max(data.limitBytes ?? 0, ...bars.map((b) => b.bytes)));
    }
    case 'stack': {
      const parts = data.stacks.flatMap((s) => s.parts.filter((p) => p.bytes > 0));
      const total = Math.max(
        data.limitBytes ?? 0,
        ...data.stacks.map((s) => s.parts.reduce((t, p) => t + p.bytes, 0)),
      );
      return rows(parts, total);
    }
    case 'peaks':
      return peakRows(data);
    case 'narrowing':
      return [];
  }
}
