import { BasicType, PRIMITIVE_ARRAY_NAMES, valueSize } from './format.ts';
import { Growable } from './growable.ts';
import { arraySize, fieldBytes, instanceSize, type SizeModel, sizeModelFor } from './sizes.ts';

/** What an object is; the class objects of CLASS DUMP records are nodes of the graph too. */
export const ObjectKind = { instance: 0, objectArray: 1, primitiveArray: 2, class: 3 } as const;

/** Edge labels beyond field ordinals and array indices. */
export const EdgeLabel = { classOf: 0xffffffff, superclass: 0xfffffffe, loader: 0xfffffffd } as const;

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

/** A STACK FRAME record, resolved to names. */
export interface FrameInfo {
  method: string;
  signature: string;
  sourceFile: string;
  classSerial: number;
  line: number;
}

/** Everything the reader keeps of a dump: the graph in typed arrays, names, threads and stacks. */
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

  readonly ids = new Growable(Float64Array);
  readonly classOf = new Growable(Int32Array);
  readonly kind = new Growable(Uint8Array);
  readonly shallow = new Growable(Float64Array);
  readonly edgeEnd = new Growable(Float64Array);
  readonly edgeTarget = new Growable(Float64Array);
  readonly edgeLabel = new Growable(Uint32Array);

  readonly rootIds = new Growable(Float64Array);
  readonly rootKinds = new Growable(Uint8Array);
  readonly rootThreads = new Growable(Int32Array);
  readonly rootFrames = new Growable(Int32Array);

  private readonly primitiveArrayClass = new Map<number, number>();

  constructor(readonly idSize: number) {
    this.sizes = sizeModelFor(idSize);
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
    if (info.superId !== 0) this.addEdge(info.superId, EdgeLabel.superclass);
    if (info.loaderId !== 0) this.addEdge(info.loaderId, EdgeLabel.loader);
    statics.forEach((field, ordinal) => {
      if (field.type === BasicType.object && field.id !== 0) this.addEdge(field.id, ordinal);
    });
    this.endObject();
  }

  /** The instance's references, read from its field bytes (primitive values are skipped, never kept). */
  addInstance(id: number, classId: number, length: number, refAt: (offset: number) => number): number {
    const index = this.classIndex.get(classId);
    if (index === undefined) return -1;
    const info = this.classes[index] as ClassInfo;
    const layout = info.layout ?? this.layoutOf(info);
    if (layout.bytes !== length) return layout.bytes;
    this.startObject(id, index, ObjectKind.instance, layout.shallow);
    this.addEdge(classId, EdgeLabel.classOf);
    for (let i = 0; i < layout.refOffsets.length; i++) {
      const target = refAt(layout.refOffsets[i] as number);
      if (target !== 0) this.addEdge(target, i);
    }
    this.endObject();
    return layout.bytes;
  }

  startObjectArray(id: number, classId: number, length: number): void {
    const index = this.classIndex.get(classId) ?? -1;
    this.startObject(id, index, ObjectKind.objectArray, arraySize(this.sizes, length, this.sizes.reference));
    if (classId !== 0) this.addEdge(classId, EdgeLabel.classOf);
  }

  addElement(target: number, position: number): void {
    if (target !== 0) this.addEdge(target, position);
  }

  addPrimitiveArray(id: number, type: number, length: number): void {
    const index = this.primitiveClass(type);
    this.startObject(id, index, ObjectKind.primitiveArray, arraySize(this.sizes, length, valueSize(type, 8)));
    if (index >= 0) this.addEdge((this.classes[index] as ClassInfo).id, EdgeLabel.classOf);
    this.endObject();
  }

  endObject(): void {
    this.edgeEnd.push(this.edgeTarget.length);
  }

  private startObject(id: number, classIndex: number, kind: number, shallow: number): void {
    this.ids.push(id);
    this.classOf.push(classIndex);
    this.kind.push(kind);
    this.shallow.push(shallow);
  }

  private addEdge(target: number, label: number): void {
    this.edgeTarget.push(target);
    this.edgeLabel.push(label);
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
