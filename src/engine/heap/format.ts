/**
 * The HPROF binary format as HotSpot writes it (OpenJDK src/hotspot/share/services/heapDumper.cpp and
 * heapDumperWriter.hpp): a NUL-terminated header "JAVA PROFILE 1.0.1" or "1.0.2", a u4 identifier size,
 * a u8 timestamp, then records of u1 tag, u4 microseconds, u4 length. All numbers are big-endian.
 */

/** Top-level record tags. */
export const Tag = {
  utf8: 0x01,
  loadClass: 0x02,
  unloadClass: 0x03,
  frame: 0x04,
  trace: 0x05,
  heapDump: 0x0c,
  heapDumpSegment: 0x1c,
  heapDumpEnd: 0x2c,
} as const;

/** Sub-record tags inside HEAP DUMP and HEAP DUMP SEGMENT records. */
export const SubTag = {
  rootUnknown: 0xff,
  rootJniGlobal: 0x01,
  rootJniLocal: 0x02,
  rootJavaFrame: 0x03,
  rootNativeStack: 0x04,
  rootStickyClass: 0x05,
  rootThreadBlock: 0x06,
  rootMonitorUsed: 0x07,
  rootThreadObject: 0x08,
  classDump: 0x20,
  instanceDump: 0x21,
  objectArrayDump: 0x22,
  primitiveArrayDump: 0x23,
} as const;

/** The kinds of GC root, as people read them (Eclipse MAT's names). */
export const ROOT_KINDS = [
  'unknown',
  'JNI global',
  'JNI local',
  'Java local',
  'native stack',
  'system class',
  'thread block',
  'busy monitor',
  'thread',
] as const;
export type RootKind = (typeof ROOT_KINDS)[number];

/** Index into ROOT_KINDS for a root sub-record tag. */
export function rootKindIndex(subTag: number): number {
  return subTag === SubTag.rootUnknown ? 0 : subTag;
}

/** HPROF basic type codes: 2 is an object reference, the rest primitives. */
export const BasicType = {
  object: 2,
  boolean: 4,
  char: 5,
  float: 6,
  double: 7,
  byte: 8,
  short: 9,
  int: 10,
  long: 11,
} as const;

const PRIMITIVE_SIZES: Record<number, number> = { 4: 1, 5: 2, 6: 4, 7: 8, 8: 1, 9: 2, 10: 4, 11: 8 };

/** Bytes a value of the basic type takes in the dump (an object reference takes the identifier size). */
export function valueSize(type: number, idSize: number): number {
  if (type === BasicType.object) return idSize;
  const size = PRIMITIVE_SIZES[type];
  if (size === undefined) return -1;
  return size;
}

/** Java's name for a primitive array's element type. */
export const PRIMITIVE_ARRAY_NAMES: Record<number, string> = {
  4: 'boolean[]',
  5: 'char[]',
  6: 'float[]',
  7: 'double[]',
  8: 'byte[]',
  9: 'short[]',
  10: 'int[]',
  11: 'long[]',
};

/** A record that is not what the format says at that place: where, and what was expected. */
export class HprofFormatError extends Error {
  constructor(
    readonly offset: number,
    readonly expected: string,
    readonly found: string,
  ) {
    super(`corrupt heap dump at byte ${offset}: expected ${expected}, found ${found}`);
    this.name = 'HprofFormatError';
  }
}
