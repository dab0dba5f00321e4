import { describe, expect, it } from 'vitest';
import { heapSize } from '../../../src/engine/derive/heap-size.ts';
import { bookOf } from './book.ts';

describe('heap-size derivation', () => {
  // 1.5x rounded up to a whole GiB: 4g -> 6g, 3g -> 4.5 -> 5g, 1536m -> 2.25 -> 3g, 1728m -> 2592m -> 3g,
  // 512m -> 768m -> 1g.
  it('names each heap seen and half as much again, in whole GiB', () => {
    const book = bookOf({
      'spark.executor.memory': '4g',
      'spark.driver.memory': '3g',
      'jvm.Xmx': '1536m',
      'taskmanager.memory.process.size': '1728m',
      'taskmanager.memory.task.heap.size': '512m',
    });
    expect(heapSize(book)).toEqual({
      'heap.executor': '4g',
      'heap.executor.suggested': '6g',
      'heap.driver': '3g',
      'heap.driver.suggested': '5g',
      'heap.jvm': '1536m',
      'heap.jvm.suggested': '3g',
      'heap.taskmanager': '1728m',
      'heap.taskmanager.suggested': '3g',
      'heap.taskheap': '512m',
      'heap.taskheap.suggested': '1g',
    });
  });

  it('takes total Flink memory when the process size is not set, and bare numbers as MiB', () => {
    expect(heapSize(bookOf({ 'taskmanager.memory.flink.size': '2048' }))).toEqual({
      'heap.taskmanager': '2g',
      'heap.taskmanager.suggested': '3g',
    });
  });

  it('skips what is missing or unreadable', () => {
    expect(heapSize(bookOf({}))).toEqual({});
    expect(heapSize(bookOf({ 'spark.executor.memory': 'eight' }))).toEqual({});
  });
});
