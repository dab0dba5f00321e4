import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { IDLE_STOP_MS, PngThread } from '../../src/usecases/png-thread.ts';

const require = createRequire(import.meta.url);
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#c00"/></svg>';
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];

describe('the PNG thread', () => {
  it('stops once idle, so its memory goes back, and starts again for the next chart', async () => {
    const thread = new PngThread(require.resolve('@resvg/resvg-js'));
    const first = await thread.render(SVG, {});
    expect([...first.subarray(0, 4)]).toEqual(PNG_SIGNATURE);
    expect(thread.running).toBe(true);
    await sleep(IDLE_STOP_MS + 500);
    expect(thread.running).toBe(false);
    const again = await thread.render(SVG, {});
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
    expect(thread.running).toBe(true);
  });

  it('keeps running while charts keep coming', async () => {
    const thread = new PngThread(require.resolve('@resvg/resvg-js'));
    for (let i = 0; i < 3; i++) {
      await thread.render(SVG, {});
      await sleep(IDLE_STOP_MS / 2);
    }
    expect(thread.running).toBe(true);
  });
});
