import { describe, expect, it } from 'vitest';
import { duplicateClassesOf, HOLDERS, holderOf, LEAKED_LOADERS } from '../../../src/engine/heap/holders.ts';

// Class names as each engine's sources define them (the sources are in holders.ts); the paths around
// them are shaped as the reader reports a real dump's (GC root path, then the dominator path).
function suspect(path: string[], dominatorPath: string[], frame?: { className: string; method: string }) {
  return {
    className: dominatorPath[0] as string,
    path: path.map((className) => ({ className, via: 'field' })),
    accumulation: {
      className: dominatorPath.at(-1) as string,
      retainedBytes: 1,
      percent: 50,
      dominatorPath,
      via: '',
    },
    ...(frame && {
      root: {
        kind: 'Java local' as const,
        text: 'local variable',
        frame: { ...frame, sourceFile: 'X.scala', line: 1 },
      },
    }),
  };
}

describe('holderOf: a suspect named by the known class on its path', () => {
  it('takes the deepest known class: a broadcast table inside the block manager is the broadcast', () => {
    const s = suspect(
      ['class org.apache.spark.SparkEnv$'],
      [
        'org.apache.spark.storage.memory.MemoryStore',
        'java.util.LinkedHashMap',
        'org.apache.spark.storage.memory.DeserializedMemoryEntry',
        'org.apache.spark.sql.execution.joins.UnsafeHashedRelation',
        'org.apache.spark.unsafe.map.BytesToBytesMap',
      ],
    );
    expect(holderOf(s)?.id).toBe('spark-broadcast');
  });

  it('the status store deep in the driver is the UI data, whatever holds the SparkContext', () => {
    const s = suspect(
      [
        'class org.apache.spark.SparkContext$',
        'java.util.concurrent.atomic.AtomicReference',
        'org.apache.spark.SparkContext',
      ],
      [
        'org.apache.spark.status.ElementTrackingStore',
        'org.apache.spark.util.kvstore.InMemoryStore',
        'java.util.concurrent.ConcurrentHashMap',
      ],
    );
    expect(holderOf(s)?.id).toBe('spark-ui-status');
  });

  it('a class object on the path is matched by the class it is', () => {
    const s = suspect([], ['class org.apache.flink.runtime.state.heap.CopyOnWriteStateMap']);
    expect(holderOf(s)?.id).toBe('flink-heap-state');
  });

  it('a local variable of a frame that collects is the collect, when no class names a holder', () => {
    const s = suspect([], ['java.lang.Object[]'], {
      className: 'org.apache.spark.SparkContext',
      method: 'runJob',
    });
    expect(holderOf(s)?.id).toBe('spark-collect');
    const other = suspect([], ['java.lang.Object[]'], {
      className: 'org.apache.spark.SparkContext',
      method: 'stop',
    });
    expect(holderOf(other)).toBeUndefined();
  });

  it('near misses: a class in a holder package but not a holder, and a name that only starts like one', () => {
    expect(holderOf(suspect([], ['org.apache.spark.status.api.v1.StageData']))).toBeUndefined();
    expect(holderOf(suspect([], ['org.apache.spark.status.AppStatusStoreX']))).toBeUndefined();
    expect(holderOf(suspect([], ['org.apache.flink.core.memory.MemorySegment']))).toBeUndefined();
    expect(holderOf(suspect([], ['java.util.HashMap', 'java.util.HashMap$Node[]']))).toBeUndefined();
  });

  it('every holder names its source and at least one class or frame', () => {
    for (const h of HOLDERS) {
      expect(h.source, h.id).toMatch(/\.(java|scala)|docs|dynamicframe-class/);
      expect(h.classes.length + (h.frames?.length ?? 0), h.id).toBeGreaterThan(0);
    }
  });
});

describe('duplicateClassesOf: a class-loader leak is one class defined by many loaders', () => {
  it(`counts ${LEAKED_LOADERS} or more definitions, not fewer`, () => {
    const names = [
      ...Array(LEAKED_LOADERS).fill('Plugin'),
      ...Array(LEAKED_LOADERS - 1).fill('Helper'),
      'Main',
    ];
    expect(duplicateClassesOf(names)).toEqual([{ className: 'Plugin', loaders: LEAKED_LOADERS }]);
  });
});
