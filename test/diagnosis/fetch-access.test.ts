import { describe, expect, it } from 'vitest';
import { type Asker, FetchGate } from '../../src/diagnosis/fetch-access.ts';
import { FetchLimiter } from '../../src/diagnosis/fetch-limits.ts';
import { FetchRefusedError } from '../../src/errors.ts';

const slack = (user: string, channel = 'C0001'): Asker => ({
  surface: 'slack',
  workspace: 'T1',
  user,
  channel,
});

describe('FetchLimiter', () => {
  it('holds each person to perUser running fetches; a release frees one place, once', () => {
    const limiter = new FetchLimiter({ perUser: 2, perUserPerMinute: 100, total: 100 });
    const first = limiter.take('alice');
    const second = limiter.take('alice');
    const third = limiter.take('alice');
    expect(third).toEqual({ refused: expect.stringContaining('You already have 2 fetches running') });
    expect('release' in limiter.take('bob')).toBe(true);
    if (!('release' in first) || !('release' in second)) throw new Error('expected places');
    first.release();
    first.release();
    expect('release' in limiter.take('alice')).toBe(true);
    expect('refused' in limiter.take('alice')).toBe(true);
  });

  it('counts starts per minute on the given clock and says when to try again', () => {
    let now = 1_000_000;
    const limiter = new FetchLimiter({ perUser: 10, perUserPerMinute: 3, total: 100 }, () => now);
    for (let i = 0; i < 3; i++) {
      const place = limiter.take('alice');
      if ('release' in place) place.release();
      now += 10_000;
    }
    expect(limiter.take('alice')).toEqual({
      refused: expect.stringContaining('You started 3 fetches in the last minute; try again in 30 s'),
    });
    now += 30_001;
    expect('release' in limiter.take('alice')).toBe(true);
  });

  it('refuses everyone past the total, naming it', () => {
    const limiter = new FetchLimiter({ perUser: 5, perUserPerMinute: 100, total: 2 });
    limiter.take('a');
    limiter.take('b');
    expect(limiter.take('c')).toEqual({
      refused: expect.stringContaining('already running 2 fetches, its limit'),
    });
  });
});

describe('FetchGate', () => {
  it('a terminal is its own user: access rules name Slack people, so only the caps apply', async () => {
    const gate = new FetchGate({ flink: { users: ['U0BOB'], showIn: [] } });
    const admission = await gate.admit(
      { connector: 'flink', kind: 'check' },
      { surface: 'cli', workspace: 'cli', user: 'alice' },
    );
    expect(admission.audience).toBe('asker');
  });

  it('a walkthrough thread in a channel needs the channel listed in showIn; a DM with memdoctor does not', async () => {
    const gate = new FetchGate(undefined);
    await expect(
      gate.admit({ connector: 'spark', kind: 'step', sharedPlace: true }, slack('U0ALICE')),
    ).rejects.toBeInstanceOf(FetchRefusedError);
    const inDm = await gate.admit(
      { connector: 'spark', kind: 'step', sharedPlace: false },
      slack('U0ALICE', 'D0001'),
    );
    expect(inDm.audience).toBe('asker');
  });

  it('a refused fetch takes no place: the refusals of the rule do not count against the caps', async () => {
    const gate = new FetchGate({ flink: { users: ['U0BOB'], showIn: ['C0001'] } }, undefined, {
      perUser: 1,
      perUserPerMinute: 1,
      total: 1,
    });
    for (let i = 0; i < 3; i++)
      await expect(gate.admit({ connector: 'flink', kind: 'check' }, slack('U0ALICE'))).rejects.toThrow(
        'You are not among the people who may fetch from flink',
      );
    const bob = await gate.admit({ connector: 'flink', kind: 'check' }, slack('U0BOB'));
    expect(bob.audience).toBe('channel');
  });

  it('an alert fetches only for a channel listed in showIn: it has no person to show the answer to alone', async () => {
    const gate = new FetchGate({ glue: { showIn: ['C0ALERTS'] } });
    const alert = (channel: string): Asker => ({
      surface: 'alert',
      workspace: 'T1',
      user: 'alertmanager',
      channel,
    });
    expect((await gate.admit({ connector: 'glue', kind: 'check' }, alert('C0ALERTS'))).audience).toBe(
      'channel',
    );
    await expect(gate.admit({ connector: 'glue', kind: 'check' }, alert('C0OTHER'))).rejects.toThrow(
      'only in a channel listed under connectors.yaml access.glue.showIn',
    );
    await expect(gate.admit({ connector: 'flink', kind: 'check' }, alert('C0ALERTS'))).rejects.toBeInstanceOf(
      FetchRefusedError,
    );
  });
});
