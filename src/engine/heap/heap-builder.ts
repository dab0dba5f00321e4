import { BlockColumn } from './blocks.ts';
import type { Fields } from './cursor.ts';
import { arrayEdges, classEdges, EdgeLabel, type EdgeOut, instanceEdges } from './edges.ts';
import { BasicType, PRIMITIVE_ARRAY_NAMES, valueSize } from './format.ts';
import { Growable } from './growable.ts';
import { arraySize, fieldBytes, instanceSize, type SizeModel, sizeModelFor } from './sizes.ts';

/** What an object is; the class objects of CLASS DUMP records are nodes of the graph too. */
export const ObjectKind = { instance: 0, objectArray: 1, primitiveArray: 2, class: 3 } as const;

export { EdgeLabel };

/** One class from its LOAD CLASS and CLASS DUMP records: names only, never values. */
export interface ClassInfo {
  readonly id: number;
  name: string;
  superId: number;
  loaderId: number;
  /** The class's own instance fields, in dump order. */
  fields: { name: string; type: number }[];
  staticNames: string[];
  /** Set when the first instance is read: byte offsets of references in an instance, and their field names. */
  layout?: { refOffsets: number[]; refNames: string[]; allNames: string[]; bytes: number; shallow: number };
}

/** One row per object of the dump, in dump order, from the first pass. */
export interface ObjectColumns {
  n: number;
  ids: Float64Array;
  classOf: Int32Array;
  kind: Uint8Array;
  shallow: Uint32Array | Float64Array;
  /** start[i]..start[i+1]: object i's references once resolved; n + 2 entries. */
  start: Uint32Array | Float64Array;
  /** References counted in the first pass (dangling ones included). */
  edges: number;
}

/** Offsets into edge arrays: 4 bytes each while every offset fits, else 8. */
export function offsets(length: number, largest: number): Uint32Array | Float64Array {
  return largest <= 0xffffffff ? new Uint32Array(length) : new Float64Array(length);
}

/** A STACK FRAME record, resolved to names. */
export interface FrameInfo {
  method: string;
  signature: string;
  sourceFile: string;
  classSerial: number;
  line: number;
}

/**
 * Counts an object's references, and keeps their raw identifiers only when the dump cannot be read a
 * second time (gzip from a pipe): a second pass resolves them straight to object indices instead.
 */
export class EdgeTally implements EdgeOut {
  /** Per object, the number of references of every object up to it (the CSR's ends). */
  readonly ends = new BlockColumn(Float64Array);
  readonly raw?: { targets: BlockColumn<Float64Array>; labels: BlockColumn<Uint32Array> };
  private count = 0;

  constructor(keepRaw: boolean) {
    if (keepRaw) this.raw = { targets: new BlockColumn(Float64Array), labels: new BlockColumn(Uint32Array) };
  }

  add(target: number, label: number): void {
    this.count++;
    this.raw?.targets.push(target);
    this.raw?.labels.push(label);
  }

  endObject(): void {
    this.ends.push(this.count);
  }
}

/** Everything the first pass keeps of a dump: one row per object in typed arrays, names, roots, threads, stacks. */
export class HeapBuilder {
  readonly sizes: SizeModel;
  readonly symbols = new Map<number, string>();
  readonly classSerials = new Map<number, number>();
  readonly classNames = new Map<number, string>();
  readonly classes: ClassInfo[] = [];
  readonly classIndex = new Map<number, number>();
  readonly frames = new Map<number, FrameInfo>();
  readonly traces = new Map<number, { threadSerial: number; frameIds: number[] }>();
  readonly threads = new Map<number, { objectId: number; traceSerial: number }>();

  readonly ids = new BlockColumn(Float64Array);
  readonly classOf = new BlockColumn(Int32Array);
  readonly kind = new BlockColumn(Uint8Array);
  readonly shallow = new BlockColumn(Float64Array);
  readonly edges: EdgeTally;

  readonly rootIds = new Growable(Float64Array);
  readonly rootKinds = new Growable(Uint8Array);
  readonly rootThreads = new Growable(Int32Array);
  readonly rootFrames = new Growable(Int32Array);

  private readonly primitiveArrayClass = new Map<number, number>();

  constructor(
    readonly idSize: number,
    keepRawEdges = false,
  ) {
    this.sizes = sizeModelFor(idSize);
    this.edges = new EdgeTally(keepRawEdges);
  }

  symbol(id: number): string {
    return this.symbols.get(id) ?? `<unnamed symbol ${id}>`;
  }

  addLoadClass(serial: number, classId: number, nameId: number): void {
    this.classSerials.set(serial, classId);
    this.classNames.set(classId, javaName(this.symbol(nameId)));
  }

  addRoot(kind: number, id: number, threadSerial: number, frame: number): void {
    this.rootIds.push(id);
    this.rootKinds.push(kind);
    this.rootThreads.push(threadSerial);
    this.rootFrames.push(frame);
  }

  addClass(info: Omit<ClassInfo, 'name'>, statics: { name: string; type: number; id: number }[]): void {
    const name = this.classNames.get(info.id) ?? `<class ${info.id}>`;
    this.classIndex.set(info.id, this.classes.length);
    this.classes.push({ ...info, name });
    // The size is set once java.lang.Class is known (buildGraph): VisualVM counts a class object as
    // one java.lang.Class instance, its static values not included.
    this.startObject(info.id, -1, ObjectKind.class, 0);
    classEdges(info, statics, this.edges);
  }

  /** The instance's references, read from its field bytes (primitive values are skipped, never kept). */
  addInstance(id: number, classId: number, length: number, fields: Fields): number {
    const layout = this.instanceLayout(classId);
    if (!layout) return -1;
    if (layout.bytes !== length) return layout.bytes;
    this.startObject(id, this.classIndex.get(classId) as number, ObjectKind.instance, layout.shallow);
    instanceEdges(layout.refOffsets, fields, this.edges);
    return layout.bytes;
  }

  /** The field layout of the class's instances; undefined when the class has no CLASS DUMP (yet). */
  instanceLayout(classId: number): ClassInfo['layout'] {
    const index = this.classIndex.get(classId);
    if (index === undefined) return undefined;
    const info = this.classes[index] as ClassInfo;
    return info.layout ?? this.layoutOf(info);
  }

  addObjectArray(id: number, classId: number, length: number, elements: Fields): void {
    const index = this.classIndex.get(classId) ?? -1;
    this.startObject(id, index, ObjectKind.objectArray, arraySize(this.sizes, length, this.sizes.reference));
    arrayEdges(length, this.idSize, elements, this.edges);
  }

  addPrimitiveArray(id: number, type: number, length: number): void {
    const index = this.primitiveClass(type);
    this.startObject(id, index, ObjectKind.primitiveArray, arraySize(this.sizes, length, valueSize(type, 8)));
    this.edges.endObject();
  }

  /**
   * The first pass's rows as exact-size arrays (each column's blocks let go once copied), and the CSR's
   * start offsets from the reference counts, with room after them for the virtual root's edges.
   */
  finish(): ObjectColumns {
    const n = this.ids.length;
    const ids = this.ids.toArray();
    const classOf = this.classOf.toArray();
    const kind = this.kind.toArray();
    let largest = 0;
    for (let i = 0; i < this.shallow.length; i++) largest = Math.max(largest, this.shallow.get(i));
    const shallow =
      largest <= 0xffffffff ? this.shallow.toArray(Uint32Array) : this.shallow.toArray(Float64Array);
    const edges = this.edges.ends.length === 0 ? 0 : this.edges.ends.get(this.edges.ends.length - 1);
    const start = offsets(n + 2, edges + n);
    for (let i = 0; i < n; i++) start[i + 1] = this.edges.ends.get(i);
    this.edges.ends.clear();
    return { n, ids, classOf, kind, shallow, start, edges };
  }

  private startObject(id: number, classIndex: number, kind: number, shallow: number): void {
    this.ids.push(id);
    this.classOf.push(classIndex);
    this.kind.push(kind);
    this.shallow.push(shallow);
  }

  private primitiveClass(type: number): number {
    const known = this.primitiveArrayClass.get(type);
    if (known !== undefined) return known;
    const name = PRIMITIVE_ARRAY_NAMES[type];
    const index = this.classes.findIndex((c) => c.name === name);
    this.primitiveArrayClass.set(type, index);
    return index;
  }

  /** An instance's shallow size for the class at this index. */
  instanceShallow(classIndex: number): number {
    const info = this.classes[classIndex];
    return info ? (info.layout ?? this.layoutOf(info)).shallow : 0;
  }

  private layoutOf(info: ClassInfo): NonNullable<ClassInfo['layout']> {
    const refOffsets: number[] = [];
    const refNames: string[] = [];
    const allNames: string[] = [];
    let offset = 0;
    let objectBytes = 0;
    // An instance's bytes hold its class's fields, then its superclass's, up to java.lang.Object.
    for (let c: ClassInfo | undefined = info; c; c = this.superOf(c)) {
      for (const field of c.fields) {
        allNames.push(field.name);
        if (field.type === BasicType.object) {
          refOffsets.push(offset);
          refNames.push(field.name);
        }
        offset += valueSize(field.type, this.idSize);
        objectBytes += fieldBytes(this.sizes, field.type);
      }
    }
    info.layout = {
      refOffsets,
      refNames,
      allNames,
      bytes: offset,
      shallow: instanceSize(this.sizes, objectBytes),
    };
    return info.layout;
  }

  private superOf(info: ClassInfo): ClassInfo | undefined {
    if (info.superId === 0) return undefined;
    const index = this.classIndex.get(info.superId);
    return index === undefined ? undefined : this.classes[index];
  }
}

/** `java/util/HashMap` and `[Ljava/lang/Object;` to `java.util.HashMap` and `java.lang.Object[]`. */
export function javaName(vmName: string): string {
  let dims = 0;
  while (vmName[dims] === '[') dims++;
  if (dims === 0) return vmName.replaceAll('/', '.');
  const rest = vmName.slice(dims);
  const primitive: Record<string, string> = {
    Z: 'boolean',
    C: 'char',
    F: 'float',
    D: 'double',
    B: 'byte',
    S: 'short',
    I: 'int',
    J: 'long',
  };
  const base = rest.startsWith('L')
    ? rest.slice(1, rest.endsWith(';') ? -1 : undefined).replaceAll('/', '.')
    : (primitive[rest] ?? rest);
  return base + '[]'.repeat(dims);
}
