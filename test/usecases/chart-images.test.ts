import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../src/engine/parsers/parse-text.ts';
import { drawCharts, renderPng } from '../../src/usecases/chart-images.ts';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function gcChart() {
  const text = readFileSync(
    new URL(
      '../engine/parsers/fixtures/gc-log/jdk17-parallel-leak-oom-128m-xlog-gc-uptime.log',
      import.meta.url,
    ),
    'utf8',
  );
  const [chart] = drawCharts([parseText('gc-log', text).chart]);
  if (!chart) throw new Error('no chart');
  return chart;
}

/** The width and height in a PNG's IHDR chunk, which always comes first after the signature. */
function dimensions(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  expect(String.fromCharCode(...png.slice(12, 16))).toBe('IHDR');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe('renderPng', () => {
  it('draws a real GC log chart as a PNG twice the SVG size', async () => {
    const chart = gcChart();
    const png = await renderPng(chart);
    expect([...png.slice(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(dimensions(png)).toEqual({ width: chart.width * 2, height: chart.height * 2 });
  });

  it('renders off the event loop: callbacks run while the PNG is drawn', async () => {
    await renderPng(gcChart()); // the module and fonts loaded: what is left is the drawing itself
    let ticks = 0;
    let done = false;
    const spin = () => {
      if (done) return;
      ticks++;
      setImmediate(spin);
    };
    setImmediate(spin);
    await renderPng(gcChart());
    done = true;
    expect(ticks).toBeGreaterThan(0);
  });

  it('rejects an SVG it cannot read, so the caller can leave the chart out', async () => {
    await expect(renderPng({ svg: '<svg' })).rejects.toThrow();
  });
});
