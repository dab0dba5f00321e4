import { describe, expect, it } from 'vitest';
import { glueWorker } from '../../../src/engine/derive/glue-worker.ts';
import { FactBook } from '../../../src/engine/facts.ts';

function bookWith(key: string, value: string): FactBook {
  const book = new FactBook();
  book.add({ kind: 'config', values: { key, value }, line: 1, text: `${key}=${value}` });
  return book;
}

describe('glue-worker derivation', () => {
  it.each([
    ['G.1X', 'G.2X'],
    ['g.2x', 'G.4X'],
    ['G.025X', 'G.1X'],
  ])('%s steps up to %s', (type, next) => {
    expect(glueWorker(bookWith('glue.workerType', type))).toEqual({
      'glue.worker': type.toUpperCase(),
      'glue.worker.next': next,
    });
  });

  it('names a memory-optimized type and the next larger general-purpose one', () => {
    expect(glueWorker(bookWith('glue.worker-type', 'R.1X'))).toEqual({
      'glue.worker': 'R.1X',
      'glue.worker.next': 'G.4X',
    });
  });

  it('names no next type for the largest ones', () => {
    expect(glueWorker(bookWith('glue.workerType', 'G.16X'))).toEqual({ 'glue.worker': 'G.16X' });
    expect(glueWorker(bookWith('glue.workerType', 'R.8X'))).toEqual({ 'glue.worker': 'R.8X' });
  });

  it('gives nothing for an unknown type or none', () => {
    expect(glueWorker(bookWith('glue.workerType', 'G.3X'))).toEqual({});
    expect(glueWorker(new FactBook())).toEqual({});
  });
});
