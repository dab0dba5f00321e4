import { readFileSync } from 'node:fs';
import { parseText } from '../src/engine/parsers/parse-text.ts';
import { drawCharts } from '../src/usecases/chart-images.ts';
import { encodePng } from '../src/usecases/png-encode.ts';
const text = readFileSync('test/engine/parsers/fixtures/gc-log/jdk17-parallel-leak-oom-128m-xlog-gc-uptime.log','utf8');
const [chart] = drawCharts([parseText('gc-log', text).chart]);
const { renderAsync } = await import('@resvg/resvg-js');
for (const k of [1, 3]) {
  const svg = chart!.svg.replace(`width="860" height="440"`, `width="${860*k}" height="${440*k}"`);
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const img = await renderAsync(svg, { fitTo: { mode: 'zoom', value: 2 }, background: '#ffffff', logLevel: 'off' });
    const t1 = performance.now();
    const px = img.pixels;
    const t2 = performance.now();
    const p = encodePng(px, img.width, img.height);
    const t3 = performance.now();
    const png = await p;
    const t4 = performance.now();
    const old = img.asPng();
    const t5 = performance.now();
    console.log(`k${k} render ${(t1-t0).toFixed(1)} pixels ${(t2-t1).toFixed(1)} encode-sync ${(t3-t2).toFixed(1)} deflate ${(t4-t3).toFixed(1)} | asPng ${(t5-t4).toFixed(1)} sizes ${png.length} ${old.length}`);
  }
}
