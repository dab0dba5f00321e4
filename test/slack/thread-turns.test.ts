import { describe, expect, it } from 'vitest';
import { ThreadTurns, threadTurns } from '../../src/slack/thread-turns.ts';

/** A turn that ends when its `end` is called, recording when it starts and ends. */
function turn(log: string[], name: string) {
  let end: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  const work = async () => {
    log.push(`${name} starts`);
    await ended;
    log.push(`${name} ends`);
    return name;
  };
  return { work, end: () => end() };
}

describe('ThreadTurns', () => {
  it('runs the turns of one thread one after another, other threads meanwhile', async () => {
    const turns = new ThreadTurns();
    const log: string[] = [];
    const a1 = turn(log, 'a1');
    const a2 = turn(log, 'a2');
    const b1 = turn(log, 'b1');
    const results = [turns.take('a', a1.work), turns.take('a', a2.work), turns.take('b', b1.work)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['a1 starts', 'b1 starts']);
    a2.end();
    b1.end();
    await results[2];
    expect(log).not.toContain('a2 starts');
    a1.end();
    expect(await Promise.all(results)).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a2 starts')).toBeGreaterThan(log.indexOf('a1 ends'));
    expect(turns.size).toBe(0);
  });

  it('a failed turn gives its error to its caller and the next turn still runs', async () => {
    const turns = new ThreadTurns();
    const failed = turns.take('a', async () => {
      throw new Error('download failed');
    });
    const next = turns.take('a', async () => 'next');
    await expect(failed).rejects.toThrow('download failed');
    expect(await next).toBe('next');
    expect(turns.size).toBe(0);
  });

  it('keeps one set of turns per owner', () => {
    const store = {};
    expect(threadTurns(store)).toBe(threadTurns(store));
    expect(threadTurns({})).not.toBe(threadTurns(store));
  });
});
