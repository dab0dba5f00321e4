import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/log.ts';
import { stopWithin } from '../../src/slack/start.ts';
import { LogSink } from './support/harness.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('graceful shutdown', () => {
  it('logs the signal and the stop, and does not exit the process itself', async () => {
    const sink = new LogSink();
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    let stopped = false;
    await stopWithin(
      1000,
      'SIGTERM',
      async () => {
        stopped = true;
      },
      createLogger('info', sink),
    );
    expect(stopped).toBe(true);
    expect(sink.lines.map((l) => l.msg)).toEqual(['memdoctor shutting down', 'memdoctor stopped']);
    expect(sink.lines[0]).toMatchObject({ signal: 'SIGTERM', deadlineMs: 1000 });
    expect(exit).not.toHaveBeenCalled();
  });

  it('exits with 1 once the deadline passes with the stop still pending', async () => {
    const sink = new LogSink();
    const exited = new Promise<unknown>((resolve) => {
      vi.spyOn(process, 'exit').mockImplementation(((code: number) => resolve(code)) as never);
    });
    let finish = () => {};
    const stopping = stopWithin(
      20,
      'SIGTERM',
      () => new Promise<void>((r) => (finish = r)),
      createLogger('info', sink),
    );
    expect(await exited).toBe(1);
    expect(sink.lines.map((l) => l.msg)).toContain('memdoctor shutdown deadline passed; exiting');
    finish();
    await stopping;
  });
});
