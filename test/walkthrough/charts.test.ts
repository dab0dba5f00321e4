import { describe, expect, it } from 'vitest';
import { drawChart } from '../../src/engine/charts/index.ts';
import { walkthroughCharts } from '../../src/walkthrough/charts.ts';
import { renderTranscript } from '../../src/walkthrough/transcript.ts';
import { newRecord, play } from './helpers.ts';

// The test procedure's bisection: five candidates (read, parse, enrich, ...), symptom "memory keeps growing".
const bisected = () =>
  play(newRecord(), [
    { type: 'start' },
    { type: 'choose', answer: 'heap' },
    { type: 'measure', value: 40 },
    { type: 'bisect', leak: true },
    { type: 'bisect', leak: false },
  ]);

describe("a walkthrough's charts", () => {
  it("draw a bisection's narrowing round by round, from the record alone", async () => {
    const [chart] = walkthroughCharts(bisected());
    expect(chart?.file).toBe('find-leak-narrowing.png');
    if (chart?.data.kind !== 'narrowing') throw new Error('no narrowing');
    expect(chart.data.total).toBe(5);
    const drawn = drawChart(chart.data);
    expect(drawn.alt).toMatch(
      /5 candidates at the start; round 1: symptom with 3 tested, 3 left; round 2: no symptom with 2 tested, 1 left\. Found: enrich\.$/,
    );
    expect(drawChart(chart.data).svg).toBe(drawn.svg);
    await expect(drawn.svg).toMatchFileSnapshot('__snapshots__/bisection-narrowing.svg');
  });

  it('are referred to in the transcript under the step they draw, by file name and alt text', () => {
    const record = bisected();
    const markdown = renderTranscript(record);
    const [chart] = walkthroughCharts(record);
    const alt = chart ? drawChart(chart.data).alt : '';
    const line = markdown.split('\n').find((l) => l.includes('](find-leak-narrowing.png)'));
    expect(line).toBe(`   - ![${alt}](find-leak-narrowing.png)`);
    expect(markdown.indexOf(line as string)).toBeGreaterThan(markdown.indexOf('Round 2: no symptom'));
  });

  it('none before a round is run', () => {
    const record = play(newRecord(), [{ type: 'start' }, { type: 'choose', answer: 'heap' }]);
    expect(walkthroughCharts(record)).toEqual([]);
    expect(renderTranscript(record)).not.toContain('![');
  });
});
