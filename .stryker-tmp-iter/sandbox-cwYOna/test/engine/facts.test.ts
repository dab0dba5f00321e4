// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { type Fact, FactBook } from '../../src/engine/facts.ts';

const fact = (kind: string, line: number, values?: Fact['values']): Fact => ({
  kind,
  line,
  text: `line ${line}`,
  ...(values ? { values } : {}),
});

describe('FactBook', () => {
  it('keeps the count of every fact but only the first six of a kind', () => {
    const book = new FactBook();
    for (let line = 1; line <= 100_000; line++) book.add(fact('oom.java-heap', line));
    expect(book.count('oom.java-heap')).toBe(100_000);
    expect(book.find('oom.java-heap').map((f) => f.line)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('finds by exact kind or by prefix with .*, sorted by line', () => {
    const book = new FactBook();
    book.add(fact('oom.metaspace', 7));
    book.add(fact('oom.java-heap', 3));
    book.add(fact('oomx.other', 1));
    book.add(fact('exit.137', 2));
    expect(book.find('oom.*').map((f) => [f.kind, f.line])).toEqual([
      ['oom.java-heap', 3],
      ['oom.metaspace', 7],
    ]);
    expect(book.find('oom.java-heap')).toHaveLength(1);
    expect(book.find('oom')).toEqual([]);
    expect(book.has('exit.*')).toBe(true);
    expect(book.has('engine.*')).toBe(false);
    expect(book.count('engine.spark')).toBe(0);
  });

  it('lists kinds sorted, whatever the input order', () => {
    const book = new FactBook();
    for (const kind of ['z.last', 'a.first', 'm.middle', 'a.first']) book.add(fact(kind, 1));
    expect(book.kinds()).toEqual(['a.first', 'm.middle', 'z.last']);
  });

  it('keeps the last value of a config key (later settings win)', () => {
    const book = new FactBook();
    book.add(fact('config', 1, { key: 'spark.executor.memory', value: '4g' }));
    book.add(fact('config', 9, { key: 'spark.executor.memory', value: '8g' }));
    book.add(fact('config', 5, { key: 'spark.driver.memory', value: '2g' }));
    expect(book.config('spark.executor.memory')?.values?.value).toBe('8g');
    expect(book.config('spark.executor.memory')?.line).toBe(9);
    expect(book.config('spark.unset')).toBeUndefined();
    expect([...book.allConfigs().keys()]).toEqual(['spark.executor.memory', 'spark.driver.memory']);
  });

  it('bounds the config keys it remembers, so a log full of distinct keys stays small', () => {
    const book = new FactBook();
    for (let i = 0; i < 50_000; i++)
      book.add(fact('config', i + 1, { key: `spark.custom.key${i}`, value: `${i}` }));
    expect(book.allConfigs().size).toBeLessThanOrEqual(1000);
    // Keys it already holds still take later values.
    book.add(fact('config', 60_000, { key: 'spark.custom.key0', value: 'late' }));
    expect(book.config('spark.custom.key0')?.values?.value).toBe('late');
  });

  it('does not let a caller change what it holds through find()', () => {
    const book = new FactBook();
    book.add(fact('oom.java-heap', 1));
    book.find('oom.java-heap').push(fact('oom.java-heap', 99));
    expect(book.find('oom.java-heap').map((f) => f.line)).toEqual([1]);
  });

  it('tally counts a kind without storing it once six are kept, and never for config', () => {
    const book = new FactBook();
    expect(book.tally('oom.java-heap')).toBe(false);
    for (let line = 1; line <= 6; line++) book.add(fact('oom.java-heap', line));
    expect(book.tally('oom.java-heap')).toBe(true);
    expect(book.count('oom.java-heap')).toBe(7);
    expect(book.find('oom.java-heap')).toHaveLength(6);
    for (let line = 1; line <= 6; line++) book.add(fact('config', line, { key: `k${line}`, value: '1' }));
    expect(book.tally('config')).toBe(false);
  });
});
