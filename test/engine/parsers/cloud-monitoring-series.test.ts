import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, parseText } from '../../../src/engine/parsers/parse-text.ts';

const read = (name: string) =>
  readFileSync(join(import.meta.dirname, 'fixtures', 'cloud-monitoring-series', name), 'utf8');
/** A real timeSeries.list answer: three DOUBLE series, points newest first, the answer's unit (SOURCES.md). */
const GRAFANA = read('grafana-gce-cpu-usage-time-3-series.json');
/** Two answers pasted one after the other: bytes_used, then container_limit (SOURCES.md). */
const DATAFLOW = read('assembled-dataflow-worker-oom.json');

type Answer = {
  timeSeries: { metric: { type: string }; points: { value: Record<string, unknown> }[] }[];
  nextPageToken?: string;
  unit?: string;
};
const [USED, LIMITS] = DATAFLOW.split(/\n(?=\{)/).map((doc) => JSON.parse(doc) as Answer) as [Answer, Answer];
const parse = (...answers: unknown[]) =>
  parseText('cloud-monitoring-series', answers.map((a) => JSON.stringify(a, null, 2)).join('\n'));

describe('cloud-monitoring-series', () => {
  it('is detected from a real answer and from a pasted pair', () => {
    expect(detectFormat(GRAFANA.split('\n').slice(0, 50))).toBe('cloud-monitoring-series');
    expect(detectFormat(DATAFLOW.split('\n').slice(0, 50))).toBe('cloud-monitoring-series');
  });

  it('reads a real answer of other series by metric type: doubles, three series, its unit', () => {
    const out = parseText('cloud-monitoring-series', GRAFANA);
    expect(out.values).toEqual({ series: 3, points: 9, morePages: false });
    expect(out.summary).toBe(
      'compute.googleapis.com/instance/cpu/usage_time: 3 series, 9 points, peak 30.903974115849 10^2.%.',
    );
    expect(out.chart).toBeUndefined();
  });

  it("judges each container's bytes_used against its own container_limit, the nearest its limit first", () => {
    const out = parseText('cloud-monitoring-series', DATAFLOW);
    expect(out.values).toMatchObject({
      series: 4,
      points: 42,
      workerMemoryPeakBytes: 251203584,
      workerMemoryLimitBytes: 268435456,
      workerMemoryPeakShare: 0.9358,
      workerMemoryShape: 'climbing',
    });
    expect(out.verdict).toBe('worker container reached 94% of its memory limit');
    expect(out.summary).toMatch(
      /^harness on wordcount-05180703-k2qd-harness-7lzw peaked at 240 MB of 256 MB container_limit \(94%\), 13 points, climbing; harness on wordcount-05180703-k2qd-harness-m9sx peaked at 97\.6 MB/,
    );
    expect(out.chart?.kind).toBe('memory-samples');
  });

  it('a climbing container is a memory.growing fact, as climbing samples are; other series give none', () => {
    const growing = parseText('cloud-monitoring-series', DATAFLOW).facts.filter(
      (f) => f.kind === 'memory.growing',
    );
    expect(growing).toEqual([
      expect.objectContaining({
        line: 1,
        values: {
          growthShare: 30.0999,
          lastBytes: 251203584,
          rateBytesPerSecond: 1343118,
          limitBytes: 268435456,
        },
      }),
    ]);
    expect(parseText('cloud-monitoring-series', GRAFANA).facts.map((f) => f.kind)).not.toContain(
      'memory.growing',
    );
  });

  it('puts points in time order whatever order they come in: newest first gives the same reading', () => {
    const oldestFirst = structuredClone(USED);
    for (const s of oldestFirst.timeSeries) s.points.reverse();
    expect(parse(oldestFirst, LIMITS).values).toEqual(parse(USED, LIMITS).values);
  });

  it('reads int64Value as a string or a number, and doubleValue, alike', () => {
    const asNumbers = structuredClone(USED);
    for (const s of asNumbers.timeSeries)
      for (const p of s.points) p.value = { doubleValue: Number(p.value.int64Value) };
    expect(parse(asNumbers, LIMITS).values).toEqual(parse(USED, LIMITS).values);
  });

  it('without the limit series it gives the peak and shape, and no share or verdict', () => {
    const out = parse(USED);
    expect(out.values.workerMemoryPeakBytes).toBe(251203584);
    expect(out.values.workerMemoryPeakShare).toBeUndefined();
    expect(out.verdict).toBeUndefined();
    expect(out.summary).toContain('(no limit series in the answer)');
  });

  it('says an answer has more pages (nextPageToken) than were read', () => {
    const out = parse({ ...USED, nextPageToken: 'CiAKGjIwMjYtMDUtMTg' }, LIMITS);
    expect(out.values.morePages).toBe(true);
    expect(out.summary).toContain('the answer names a nextPageToken: later pages were not read');
  });

  it('an empty answer ({}) is told as no points, not as the wrong output', () => {
    const out = parseText('cloud-monitoring-series', '{}\n');
    expect(out.values).toEqual({ series: 0, points: 0, morePages: false });
    expect(out.summary).toBe(
      'No time series in the answer: Cloud Monitoring holds no points for this filter and interval (it answers {}).',
    );
  });

  it('does not read a series whose stated unit is not bytes as memory', () => {
    const out = parse({ ...USED, unit: 'MiBy' });
    expect(out.values.workerMemoryPeakBytes).toBeUndefined();
    expect(out.summary).toContain(
      'harness on wordcount-05180703-k2qd-harness-7lzw: unit MiBy, not bytes: not read',
    );
  });

  it('a cut-off answer is refused, saying what was expected', () => {
    expect(() => parseText('cloud-monitoring-series', DATAFLOW.slice(0, 900))).toThrow(
      /could not parse: expected the complete JSON that Cloud Monitoring timeSeries\.list answers/,
    );
  });
});
