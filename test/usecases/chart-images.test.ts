import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

  it('answers requests all through a large chart: no gap in the answers near the time the PNG takes', async () => {
    // The GC chart at three times its size (the SVG scales by its viewBox): 5160x2640 pixels at zoom 2.
    const { svg, width, height } = gcChart();
    const large = svg.replace(
      `width="${width}" height="${height}"`,
      `width="${width * 3}" height="${height * 3}"`,
    );
    await renderPng(gcChart()); // the module and fonts loaded: what is left is the drawing itself
    const server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      // An ack-shaped exchange over and over, as Slack's requests would come in, while the PNG is made.
      let rendering = true;
      let last = performance.now();
      const gaps: number[] = [];
      const acks = (async () => {
        while (rendering) {
          await (await fetch(url)).text();
          gaps.push(performance.now() - last);
          last = performance.now();
        }
      })();
      const started = performance.now();
      const png = await renderPng({ svg: large });
      const took = performance.now() - started;
      rendering = false;
      await acks;
      expect(dimensions(png)).toEqual({ width: width * 6, height: height * 6 });
      expect(gaps.length).toBeGreaterThan(1);
      // Not a time target: a share of the render. Encoding on the loop (resvg's asPng) held it for
      // most of the render, so no request was answered for over half of it.
      expect(Math.max(...gaps)).toBeLessThan(took / 4);
    } finally {
      server.close();
    }
  });

  it('rejects an SVG it cannot read, so the caller can leave the chart out', async () => {
    await expect(renderPng({ svg: '<svg' })).rejects.toThrow();
  });
});
