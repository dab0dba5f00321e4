import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../src/diagnosis/index.ts';
import { drawChart } from '../../../src/engine/charts/index.ts';
import { fileChunks } from '../../../src/file-chunks.ts';
import { loadPlaybooks } from '../../../src/playbooks/load.ts';

/** Real dumps of live JDK 17 JVMs (test/fixtures/heap-dumps/SOURCES.md), diagnosed as the CLI does. */
const DIR = 'test/fixtures/heap-dumps';
const playbooks = loadPlaybooks();

async function holders(name: string) {
  const path = `${DIR}/${name}`;
  const input = {
    source: name,
    chunks: fileChunks(path),
    seekable: { locator: path, size: 0, read: (from: number) => fileChunks(path, from) },
  };
  const result = await diagnose({ input, workspace: 'cli' }, { playbooks });
  if (!result.chart) throw new Error(`${name} gave no chart`);
  return result.chart;
}

describe("a heap dump's biggest holders", () => {
  it('each suspect thread of a ThreadLocal leak, named by its thread, against the reachable heap', async () => {
    const data = await holders('threadlocal-leak.hprof.gz');
    const chart = drawChart(data);
    expect(drawChart(data).svg).toBe(chart.svg);
    await expect(chart.svg).toMatchFileSnapshot('__snapshots__/heap-holders-threadlocal.svg');
    expect(chart.alt).toMatch(
      /^Chart: Heap dump: what the leak suspects retain: Thread "pool-worker-0" 4\.71 MB,/,
    );
    expect(data.kind === 'bars' && data.limitLabel).toBe('reachable heap');
    expect(chart.alt).toContain('(23.8% of the heap) via thread "pool-worker-0"');
  });

  it('a static cache: the one holder with its size inside the bar, clear of the heap line beside it', async () => {
    const chart = drawChart(await holders('classloader-leak.hprof.gz'));
    await expect(chart.svg).toMatchFileSnapshot('__snapshots__/heap-holders-classloader.svg');
    expect(chart.alt).toContain('class ClassLoaderLeak 19.7 MB');
    expect(chart.svg).toMatch(/font-size="11" fill="#ffffff" text-anchor="end">19\.7 MB</);
  });
});
