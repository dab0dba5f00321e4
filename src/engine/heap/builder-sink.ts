import { SubTag } from './format.ts';
import { HeapBuilder } from './heap-builder.ts';
import type { HprofSink } from './sink.ts';

/**
 * The first pass's sink: builds target.heap from the dump's records (the builder is made when the header
 * gives the id size). keepRawEdges: keep every reference's identifier, for a dump read only once.
 */
export function builderSink(target: { heap?: HeapBuilder }, keepRawEdges: boolean): HprofSink {
  const h = (): HeapBuilder => target.heap as HeapBuilder;
  return {
    header: (_version, idSize) => {
      target.heap = new HeapBuilder(idSize, keepRawEdges);
    },
    ...nameRecords(h),
    root: (kind, id, thread, frame, trace) => {
      h().addRoot(kind, id, thread, frame);
      if (kind === SubTag.rootThreadObject) h().threads.set(thread, { objectId: id, traceSerial: trace });
    },
    classDump: (info, statics) => {
      const heap = h();
      const fields = info.fields.map((f) => ({ name: heap.symbol(f.nameId), type: f.type }));
      const named = statics.map((s) => ({ name: heap.symbol(s.nameId), type: s.type, id: s.id }));
      heap.addClass({ ...info, fields, staticNames: named.map((s) => s.name) }, named);
    },
    instance: (id, classId, length, fields) => h().addInstance(id, classId, length, fields),
    objectArray: (id, classId, length, elements) => h().addObjectArray(id, classId, length, elements),
    primitiveArray: (id, type, length) => h().addPrimitiveArray(id, type, length),
  };
}

/** UTF8, LOAD CLASS, STACK FRAME and STACK TRACE records: names and stacks. */
function nameRecords(h: () => HeapBuilder): HprofSink {
  return {
    utf8: (id, text) => h().symbols.set(id, text),
    loadClass: (serial, classId, nameId) => h().addLoadClass(serial, classId, nameId),
    frame: (id, method, signature, sourceFile, classSerial, line) => {
      const heap = h();
      heap.frames.set(id, {
        method: heap.symbol(method),
        signature: heap.symbol(signature),
        sourceFile: sourceFile === 0 ? '' : heap.symbol(sourceFile),
        classSerial,
        line,
      });
    },
    trace: (serial, threadSerial, frameIds) => h().traces.set(serial, { threadSerial, frameIds }),
  };
}
