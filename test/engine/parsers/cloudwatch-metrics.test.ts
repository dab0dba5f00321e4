import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';

const REAL = readFileSync(
  join(import.meta.dirname, 'fixtures', 'cloudwatch-metrics', 'assembled-glue-heap-driver-oom.json'),
  'utf8',
);
type Answer = {
  MetricDataResults: {
    Id: string;
    Label: string;
    Timestamps: (string | number)[];
    Values: number[];
    StatusCode: string;
  }[];
};
const answer = (): Answer => JSON.parse(REAL);
const parse = (a: Answer) => parseText('cloudwatch-metrics', JSON.stringify(a));

describe('cloudwatch-metrics', () => {
  it('reads the wire form (epoch seconds, one line) as it reads the CLI form (ISO 8601)', () => {
    const wire = answer();
    for (const r of wire.MetricDataResults)
      r.Timestamps = r.Timestamps.map((t) => Date.parse(String(t)) / 1000);
    expect(parse(wire).values).toEqual(parseText('cloudwatch-metrics', REAL).values);
  });

  it('does not read a usage series above 1 as a heap share: Glue reports a 0-1 fraction', () => {
    const scaled = answer();
    const usage = scaled.MetricDataResults[0];
    if (usage) usage.Values = usage.Values.map((v) => v * 100);
    const out = parse(scaled);
    expect(out.values.driverHeapUsagePeak).toBeUndefined();
    expect(out.values.heapUsagePeak).toBe(0.5561);
    expect(out.summary).toMatch(
      /glue\.driver\.jvm\.heap\.usage has values above 1 \(peak 97\.6\d+\), so it is not Glue's 0-1 ratio/,
    );
  });

  it('says which series had no points (job metrics off) and gives no peak for them', () => {
    const empty = answer();
    for (const r of empty.MetricDataResults) Object.assign(r, { Timestamps: [], Values: [] });
    const out = parse(empty);
    expect(out.values).toEqual({ series: 4, points: 0, partial: false });
    expect(out.verdict).toBeUndefined();
    expect(out.summary).toBe(
      'glue.driver.jvm.heap.usage: no data points; glue.driver.jvm.heap.used: no data points; glue.ALL.jvm.heap.usage: no data points; glue.ALL.jvm.heap.used: no data points.',
    );
  });

  it('reads other metrics by their Id, and says when an answer is partial', () => {
    const other = answer();
    other.MetricDataResults = other.MetricDataResults.slice(0, 1).map((r) => ({
      ...r,
      Id: 'cpu',
      Label: 'CPUUtilization',
      StatusCode: 'PartialData',
    }));
    const out = parse(other);
    expect(out.values).toMatchObject({ 'cpu.peak': 0.9767136573791504, partial: true });
    expect(out.values.heapUsagePeak).toBeUndefined();
    expect(out.summary).toMatch(/^CPUUtilization: peak 0\.97\d+ over 26 points; some series are PartialData/);
  });

  it('a heap below 80% throughout gets that verdict', () => {
    const low = answer();
    low.MetricDataResults = low.MetricDataResults.filter((r) => r.Id === 'allHeapUsage');
    expect(parse(low).verdict).toBe('heap below 80% throughout');
  });
});
