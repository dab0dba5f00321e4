// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { flinkMemory } from '../../../src/engine/extractors/flink-memory.ts';
import { findingsOf, kindsOf } from './run-extractor.ts';

describe('flink-memory', () => {
  it.each([
    {
      // NetworkBufferPool.createBufferPool, Flink 1.0-1.4 wording (templates t042).
      line: 'java.io.IOException: Insufficient number of network buffers: required 16, but only 3 of 2048 available.',
      values: { variant: 'insufficient', required: 16, available: 3, total: 2048 },
    },
    {
      // NetworkBufferPool, Flink 1.10+ wording with the taskmanager.memory.network.* keys (templates t040).
      line: "java.io.IOException: Insufficient number of network buffers: required 2, but only 0 available. The total number of network buffers is currently set to 13926 of 32768 bytes each. You can increase this number by setting the configuration keys 'taskmanager.memory.network.fraction', 'taskmanager.memory.network.min', and 'taskmanager.memory.network.max'.",
      values: { variant: 'insufficient', required: 2, available: 0 },
    },
    {
      // NetworkBufferPool constructor; a real TaskManager log line (search index id 17227913079).
      line: 'java.lang.OutOfMemoryError: Could not allocate enough memory segments for NetworkBufferPool (required (Mb): 9, allocated (Mb): 9, missing (Mb): 0). Cause: Direct buffer memory',
      values: { variant: 'segments' },
    },
  ])('$line', ({ line, values }) => {
    expect(findingsOf(flinkMemory, line)).toEqual([{ kind: 'flink.network-buffers', values }]);
  });

  it('reads the pages MemoryManager could not allocate', () => {
    expect(
      findingsOf(
        flinkMemory,
        'Caused by: org.apache.flink.runtime.memory.MemoryAllocationException: Could not allocate 64 pages. Only 0 pages are remaining.',
      ),
    ).toEqual([
      { kind: 'flink.managed-memory', values: { variant: 'pages', requestedPages: 64, remainingPages: 0 } },
    ]);
  });

  it('tells a sorter below its minimum apart from exhausted pages', () => {
    expect(
      findingsOf(
        flinkMemory,
        'java.lang.IllegalArgumentException: Too little memory provided to sorter to perform task. Required are at least 12 pages. Current page size is 32768 bytes.',
      ),
    ).toEqual([{ kind: 'flink.managed-memory', values: { variant: 'sorter' } }]);
  });

  it("marks Flink's explanation of an OutOfMemoryError as Flink's", () => {
    expect(
      kindsOf(
        flinkMemory,
        'java.lang.OutOfMemoryError: Metaspace. The metaspace out-of-memory error has occurred. This can mean two things: either the job requires a larger size of JVM metaspace to load classes or there is a class loading leak.',
      ),
    ).toEqual(['engine.flink']);
  });

  it.each([
    'INFO  org.apache.flink.runtime.io.network.buffer.NetworkBufferPool - Allocated 128 MB for network buffer pool (number of memory segments: 4096, bytes per segment: 32768).',
    'taskmanager.memory.network.fraction: 0.2',
    'ERROR Could not allocate buffer for the request',
    'WARN Could not allocate 3 containers from YARN',
    'java.lang.OutOfMemoryError: Java heap space',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(flinkMemory, line)).toEqual([]);
  });
});
