import { arrayEdges, classEdges, instanceEdges } from './edges.ts';
import { DumpChangedError, type ResolvedEdges } from './graph.ts';
import type { HeapBuilder, ObjectColumns } from './heap-builder.ts';
import type { HprofSink } from './sink.ts';

/**
 * The second pass's sink: every object's references again, in the first pass's order, resolved to
 * object indices as they are read (no identifier per reference is kept). Each object must be the one
 * the first pass saw at that place.
 */
export function edgeSink(heap: HeapBuilder, columns: ObjectColumns, out: ResolvedEdges): HprofSink {
  const { ids } = columns;
  const same = (id: number): void => {
    if (ids[out.objects] !== id) throw new DumpChangedError(out.objects);
  };
  return {
    classDump: (info, statics) => {
      same(info.id);
      classEdges(info, statics, out);
    },
    instance: (id, classId, length, fields) => {
      const layout = heap.instanceLayout(classId);
      if (!layout) return -1;
      if (layout.bytes !== length) return layout.bytes;
      same(id);
      instanceEdges(layout.refOffsets, fields, out);
      return length;
    },
    objectArray: (id, _classId, length, elements) => {
      same(id);
      arrayEdges(length, heap.idSize, elements, out);
    },
    primitiveArray: (id) => {
      same(id);
      out.endObject();
    },
  };
}

/** The references the first pass kept as raw identifiers (a dump read once), resolved the same way. */
export function replayRawEdges(heap: HeapBuilder, columns: ObjectColumns, out: ResolvedEdges): void {
  const raw = heap.edges.raw;
  if (!raw) throw new Error('the first pass kept no references');
  let e = 0;
  for (let k = 0; k < columns.n; k++) {
    const end = columns.start[k + 1] as number;
    for (; e < end; e++) out.add(raw.targets.get(e), raw.labels.get(e));
    out.endObject();
  }
  raw.targets.clear();
  raw.labels.clear();
}
