import { describe, expect, it } from 'vitest';
import { FactCollector } from '../../../src/engine/collector.ts';
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
    expect(glueWorker(bookWith('glue.workerType', type))).toMatchObject({
      'glue.worker': type.toUpperCase(),
      'glue.worker.next': next,
    });
  });

  it('names a memory-optimized type and the next larger general-purpose one', () => {
    expect(glueWorker(bookWith('glue.worker-type', 'R.1X'))).toMatchObject({
      'glue.worker': 'R.1X',
      'glue.worker.next': 'G.4X',
    });
  });

  // The largest types have no larger general-purpose type to step up to (G.16X, R.8X: 160 GiB heaps).
  it('names no next type for the largest ones', () => {
    expect(glueWorker(bookWith('glue.workerType', 'G.16X'))).toEqual({
      'glue.worker': 'G.16X',
      'glue.driver.heap': '160 GB',
    });
    expect(glueWorker(bookWith('glue.workerType', 'R.8X'))).toEqual({
      'glue.worker': 'R.8X',
      'glue.driver.heap': '160 GB',
    });
  });

  // AWS knowledge center (glue-container-yarn-memory-limit): G.1X spark.driver.memory 10g, G.2X 20g.
  it('names the driver heap of the type and of the next one', () => {
    expect(glueWorker(bookWith('glue.workerType', 'G.1X'))).toMatchObject({
      'glue.driver.heap': '10 GB',
      'glue.driver.heap.next': '20 GB',
    });
  });

  // Real Glue kill lines: "5.5 GB of 5.5 GB" (Standard, 5g + 512m) in Glue 1.0-era threads.
  it('recognises a Standard worker from a 5.5 GB executor container', () => {
    const collector = new FactCollector();
    collector.push([
      'Container killed by YARN for exceeding memory limits. 5.5 GB of 5.5 GB physical memory used. Consider boosting spark.yarn.executor.memoryOverhead.',
    ]);
    expect(glueWorker(collector.book)).toMatchObject({
      'glue.worker': 'Standard',
      'glue.driver.heap': '5 GB',
      'glue.worker.next': 'G.1X',
      'glue.worker.evidence':
        "a 5.5 GB executor container is what a Standard worker's 5 GB heap plus Spark's default overhead makes",
    });
  });

  it('keeps the configured type over the container size, and ignores sizes no type has', () => {
    const collector = new FactCollector();
    collector.push([
      '--worker-type G.2X',
      'Container killed by YARN for exceeding memory limits. 7.3 GB of 7 GB physical memory used.',
    ]);
    expect(glueWorker(collector.book)).toEqual({});
  });

  it('gives nothing for an unknown type or none', () => {
    expect(glueWorker(bookWith('glue.workerType', 'G.3X'))).toEqual({});
    expect(glueWorker(new FactBook())).toEqual({});
  });
});
