import { type Cursor, hex, need } from './cursor.ts';
import { BasicType, HprofFormatError, SubTag, valueSize } from './format.ts';
import type { HprofSink } from './sink.ts';

/** Bytes after the tag of each root sub-record, in identifiers (i) and u4s (n). */
function rootLength(tag: number, idSize: number): number {
  switch (tag) {
    case SubTag.rootUnknown:
    case SubTag.rootStickyClass:
    case SubTag.rootMonitorUsed:
      return idSize;
    case SubTag.rootJniGlobal:
      return 2 * idSize;
    case SubTag.rootNativeStack:
    case SubTag.rootThreadBlock:
      return idSize + 4;
    case SubTag.rootJniLocal:
    case SubTag.rootJavaFrame:
    case SubTag.rootThreadObject:
      return idSize + 8;
    default:
      return -1;
  }
}

/**
 * Reads one sub-record of a heap dump segment and hands it to the sink. Returns how many bytes of it
 * are left to skip (a primitive array's values, which never leave the reader), else 0.
 */
export function readSubRecord(c: Cursor, sink: HprofSink, segmentEnd: number): number {
  need(c, 1);
  const at = c.offset;
  const tag = c.u1();
  const rootBytes = rootLength(tag, c.idSize);
  if (rootBytes >= 0) {
    need(c, rootBytes);
    readRoot(c, tag, sink);
    return 0;
  }
  switch (tag) {
    case SubTag.classDump:
      readClassDump(c, sink, at);
      return 0;
    case SubTag.instanceDump:
      readInstance(c, sink, at);
      return 0;
    case SubTag.objectArrayDump:
      readObjectArray(c, sink);
      return 0;
    case SubTag.primitiveArrayDump:
      return readPrimitiveArray(c, sink, at, segmentEnd);
    default:
      throw new HprofFormatError(
        at,
        'a heap dump sub-record tag (0x01-0x08, 0x20-0x23 or 0xff)',
        `0x${hex(tag)}`,
      );
  }
}

function readRoot(c: Cursor, tag: number, sink: HprofSink): void {
  const id = c.id();
  let thread = -1;
  let frame = -1;
  let trace = -1;
  if (tag === SubTag.rootJniGlobal) c.skip(c.idSize);
  else if (tag === SubTag.rootNativeStack || tag === SubTag.rootThreadBlock) thread = c.u4();
  else if (tag === SubTag.rootJniLocal || tag === SubTag.rootJavaFrame) {
    thread = c.u4();
    frame = c.i4();
  } else if (tag === SubTag.rootThreadObject) {
    thread = c.u4();
    trace = c.u4();
  }
  sink.root?.(tag, id, thread, frame, trace);
}

function readValue(c: Cursor, type: number, at: number): number {
  const size = valueSize(type, c.idSize);
  if (size < 0) throw new HprofFormatError(at, 'a basic type code (2, 4-11)', String(type));
  need(c, size);
  if (type === BasicType.object) return c.id();
  c.skip(size);
  return 0;
}

function readClassDump(c: Cursor, sink: HprofSink, at: number): void {
  need(c, 7 * c.idSize + 8 + 2);
  const id = c.id();
  c.skip(4);
  const superId = c.id();
  const loaderId = c.id();
  c.skip(4 * c.idSize + 4);
  const constants = c.u2();
  for (let i = 0; i < constants; i++) {
    need(c, 3);
    c.skip(2);
    readValue(c, c.u1(), at);
  }
  need(c, 2);
  const staticCount = c.u2();
  const statics: { nameId: number; type: number; id: number }[] = [];
  for (let i = 0; i < staticCount; i++) {
    need(c, c.idSize + 1);
    const nameId = c.id();
    const type = c.u1();
    statics.push({ nameId, type, id: readValue(c, type, at) });
  }
  need(c, 2);
  const fieldCount = c.u2();
  need(c, fieldCount * (c.idSize + 1));
  const fields: { nameId: number; type: number }[] = [];
  for (let i = 0; i < fieldCount; i++) {
    const nameId = c.id();
    const type = c.u1();
    if (valueSize(type, c.idSize) < 0)
      throw new HprofFormatError(c.offset - 1, 'a field type code (2, 4-11)', String(type));
    fields.push({ nameId, type });
  }
  sink.classDump?.({ id, superId, loaderId, fields }, statics);
}

function readInstance(c: Cursor, sink: HprofSink, at: number): void {
  need(c, 2 * c.idSize + 8);
  const id = c.id();
  c.skip(4);
  const classId = c.id();
  const length = c.u4();
  need(c, length);
  const start = c.pos;
  const expected = sink.instance ? sink.instance(id, classId, length, c.fieldsAt(start)) : length;
  if (expected === -1) {
    throw new HprofFormatError(
      at,
      `the CLASS DUMP of class 0x${classId.toString(16)} before its instances`,
      'an instance of a class not yet dumped',
    );
  }
  if (expected !== length) {
    throw new HprofFormatError(
      at,
      `an instance of ${expected} field bytes (its class's fields)`,
      `${length} bytes`,
    );
  }
  c.skip(length);
}

function readObjectArray(c: Cursor, sink: HprofSink): void {
  need(c, 2 * c.idSize + 8);
  const id = c.id();
  c.skip(4);
  const length = c.u4();
  const classId = c.id();
  need(c, length * c.idSize);
  const start = c.pos;
  sink.objectArray?.(id, classId, length, c.fieldsAt(start));
  c.skip(length * c.idSize);
}

function readPrimitiveArray(c: Cursor, sink: HprofSink, at: number, segmentEnd: number): number {
  need(c, c.idSize + 9);
  const id = c.id();
  c.skip(4);
  const length = c.u4();
  const type = c.u1();
  const size = valueSize(type, c.idSize);
  if (size < 0 || type === BasicType.object) {
    throw new HprofFormatError(c.offset - 1, 'a primitive type code (4-11)', String(type));
  }
  const bytes = length * size;
  if (c.offset + bytes > segmentEnd) {
    throw new HprofFormatError(
      at,
      `an array within its segment (ending at ${segmentEnd})`,
      `${bytes} bytes of values running past it`,
    );
  }
  if (sink.wantsContent?.(id)) {
    need(c, bytes);
    sink.content?.(id, type, c.bytes().slice(c.pos, c.pos + bytes));
    c.skip(bytes);
    return 0;
  }
  sink.primitiveArray?.(id, type, length);
  return bytes;
}
