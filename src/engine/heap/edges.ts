import type { Fields } from './cursor.ts';
import { BasicType } from './format.ts';

/** Edge labels beyond field ordinals and array indices. */
export const EdgeLabel = { classOf: 0xffffffff, superclass: 0xfffffffe, loader: 0xfffffffd } as const;

/** Where one object's references go, as raw identifiers, then the end of the object. */
export interface EdgeOut {
  add(target: number, label: number): void;
  endObject(): void;
}

/** The references of a class object: its superclass, its class loader and its static reference fields. */
export function classEdges(
  info: { superId: number; loaderId: number },
  statics: { type: number; id: number }[],
  out: EdgeOut,
): void {
  if (info.superId !== 0) out.add(info.superId, EdgeLabel.superclass);
  if (info.loaderId !== 0) out.add(info.loaderId, EdgeLabel.loader);
  for (let ordinal = 0; ordinal < statics.length; ordinal++) {
    const field = statics[ordinal] as { type: number; id: number };
    if (field.type === BasicType.object && field.id !== 0) out.add(field.id, ordinal);
  }
  out.endObject();
}

/** An instance's references: its class, then each non-null reference field by ordinal. */
export function instanceEdges(classId: number, refOffsets: number[], fields: Fields, out: EdgeOut): void {
  out.add(classId, EdgeLabel.classOf);
  for (let i = 0; i < refOffsets.length; i++) {
    const target = fields.idAt(refOffsets[i] as number);
    if (target !== 0) out.add(target, i);
  }
  out.endObject();
}

/** An object array's references: its class, then each non-null element by index. */
export function arrayEdges(
  classId: number,
  length: number,
  idSize: number,
  elements: Fields,
  out: EdgeOut,
): void {
  if (classId !== 0) out.add(classId, EdgeLabel.classOf);
  for (let i = 0; i < length; i++) {
    const target = elements.idAt(i * idSize);
    if (target !== 0) out.add(target, i);
  }
  out.endObject();
}

/** A primitive array's one reference: its class, when the dump has it (0: none). */
export function primitiveArrayEdges(classId: number, out: EdgeOut): void {
  if (classId !== 0) out.add(classId, EdgeLabel.classOf);
  out.endObject();
}
