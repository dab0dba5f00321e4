import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compactChart, KEPT_CHART } from '../../../src/engine/charts/compact.ts';
import { drawChart } from '../../../src/engine/charts/index.ts';
import type { BarsChartData, SamplesChartData } from '../../../src/engine/charts/types.ts';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';

const capture = (name: string) =>
  readFileSync(new URL(`../parsers/fixtures/${name}`, import.meta.url), 'utf8');

/** 100,000 samples (an edge case beside the real captures): a sawtooth with one spike and one low. */
function longSeries(): SamplesChartData {
  const points = Array.from({ length: 100_000 }, (_, i) => ({ t: i, bytes: 1e8 + (i % 97) * 1e5 }));
  points[31_337] = { t: 31_337, bytes: 9e8 };
  points[77_777] = { t: 77_777, bytes: 1e6 };
  return {
    kind: 'memory-samples',
    title: 'Memory over time',
    points,
    timed: true,
    shape: 'levelled',
    bytesPerSample: 0,
    steps: [31_337],
    plateaus: [[50_000, 99_999]],
    verdict: 'levels off',
  };
}

describe('compactChart', () => {
  it("leaves a real capture's chart as it is: a short paste is drawn as its diagnosis is", () => {
    for (const [parser, file] of [
      ['gc-log', 'gc-log/jdk17-g1-leak-oom-xlog-gc.log'],
      ['memory-samples', 'memory-samples/live-ps-climb-14mibs-1s.txt'],
      ['nmt', 'nmt/jdk17-thread-leak-3000-xss-default.txt'],
    ] as const) {
      const data = parseText(parser, capture(file)).chart ?? expect.fail(`${file}: no chart`);
      expect(compactChart(data), file).toEqual(data);
    }
  });

  it('thins 100,000 samples to the bound, keeping the spike, the low, the ends and where the marks point', () => {
    const long = longSeries();
    const kept = compactChart(long) as SamplesChartData;
    expect(kept.points.length).toBeLessThanOrEqual(KEPT_CHART.points);
    const ts = kept.points.map((p) => p.t);
    for (const t of [0, 31_337, 77_777, 99_999]) expect(ts).toContain(t);
    expect(kept.points[kept.steps[0] ?? -1]?.t).toBe(31_337);
    const [from, to] = kept.plateaus[0] ?? expect.fail('plateau lost');
    expect(kept.points[from]?.t).toBeGreaterThanOrEqual(50_000);
    expect(kept.points[to]?.t).toBe(99_999);
    expect(kept.count).toBe(100_000);
    const alt = drawChart(kept).alt;
    expect(alt).toMatch(/^Chart: 100000 memory samples/);
    // The plateau's start is said by its time, not by the index it has among the points kept.
    expect(alt).toMatch(/Levels off from \S.* in\./);
    expect(alt).not.toContain('Levels off from sample');
    expect(JSON.stringify(kept).length).toBeLessThan(20_000);
  });

  it('sums the bars past the bound into one, so the total stays', () => {
    const bars = Array.from({ length: 40 }, (_, i) => ({ label: `arena ${i + 1}`, bytes: (40 - i) * 1024 }));
    const data: BarsChartData = {
      kind: 'bars',
      id: 'pmap-arenas',
      title: 'Arenas',
      valueLabel: 'resident',
      bars,
    };
    const kept = compactChart(data) as BarsChartData;
    expect(kept.bars).toHaveLength(KEPT_CHART.bars);
    expect(kept.bars.at(-1)?.label).toBe('9 others');
    const sum = (b: readonly { bytes: number }[]) => b.reduce((s, x) => s + x.bytes, 0);
    expect(sum(kept.bars)).toBe(sum(bars));
  });

  it('cuts a text past the bound', () => {
    const long = { ...longSeries(), title: 'x'.repeat(2000), verdict: 'y'.repeat(2000) };
    const kept = compactChart(long) as SamplesChartData;
    expect(kept.title).toHaveLength(KEPT_CHART.text);
    expect(kept.verdict).toHaveLength(KEPT_CHART.text);
  });
});
