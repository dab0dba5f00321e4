import { describe, expect, it } from 'vitest';
import { type FlagSpecs, parseFlags } from '../../src/calc/flags.ts';

const SPECS: FlagSpecs = {
  'spark.executor.memory': { kind: 'size', help: 'heap' },
  'spark.memory.fraction': { kind: 'fraction', help: 'fraction' },
  'spark.executor.cores': { kind: 'int', help: 'cores' },
  'spark.dynamicAllocation.enabled': { kind: 'bool', help: 'dynamic' },
  worker: { kind: 'text', help: 'worker type', choices: ['G.1X', 'G.2X'] },
  taskmanagers: { kind: 'file', help: 'JSON' },
};
const readFile = (path: string) => `contents of ${path}`;
const parse = (...args: string[]) => parseFlags(args, SPECS, readFile);

describe('calculator flags (node util.parseArgs underneath)', () => {
  it('reads --key value and --key=value, converting each kind', () => {
    expect(
      parse(
        '--spark.executor.memory',
        '8g',
        '--spark.memory.fraction=0.6',
        '--spark.executor.cores',
        '4',
        '--worker=G.2X',
        '--taskmanagers',
        'tms.json',
      ),
    ).toEqual({
      'spark.executor.memory': 8 * 1024 ** 3,
      'spark.memory.fraction': 0.6,
      'spark.executor.cores': 4,
      worker: 'G.2X',
      taskmanagers: { path: 'tms.json', text: 'contents of tms.json' },
    });
  });

  it('takes a bare boolean as true, and true/false after it or with =', () => {
    const key = 'spark.dynamicAllocation.enabled';
    expect(parse(`--${key}`)).toEqual({ [key]: true });
    expect(parse(`--${key}`, 'false', '--spark.executor.cores', '2')).toEqual({
      [key]: false,
      'spark.executor.cores': 2,
    });
    expect(parse(`--${key}=FALSE`)).toEqual({ [key]: false });
    expect(() => parse(`--${key}=maybe`)).toThrow(`--${key} takes true or false; got "maybe".`);
  });

  it('says what is wrong with a flag, in words a person can act on', () => {
    expect(() => parse('--spark.executor.memry', '8g')).toThrow(
      'unknown flag --spark.executor.memry. Known flags: --spark.executor.memory,',
    );
    expect(() => parse('-x')).toThrow('unknown flag -x.');
    expect(() => parse('--spark.executor.memory')).toThrow('--spark.executor.memory needs a value.');
    expect(() => parse('8g')).toThrow('unexpected argument "8g": flags look like --key value.');
    expect(() => parse('--worker', 'G.9X')).toThrow('--worker must be one of G.1X, G.2X; got "G.9X".');
    expect(() => parse('--spark.memory.fraction', '1.5')).toThrow('takes a fraction in (0, 1]; got "1.5"');
    expect(() => parse('--spark.executor.memory', 'lots')).toThrow(
      'takes a size like 8g or 1536m; got "lots"',
    );
  });
});
