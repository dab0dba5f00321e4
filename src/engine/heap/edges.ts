import type { Fields } from './cursor.ts';
import { BasicType } from './format.ts';

/** Edge labels beyond field ordinals and array indices (classOf: the implied edge to an object's class). */
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

/**
 * An instance's references: each non-null reference field by ordinal. Its reference to its class is
 * not stored: the object's class says it (HeapGraph.classNode), and in a dense dump it would be a
 * third of all references.
 */
export function instanceEdges(refOffsets: number[], fields: Fields, out: EdgeOut): void {
  for (let i = 0; i < refOffsets.length; i++) {
    const target = fields.idAt(refOffsets[i] as number);
    if (target !== 0) out.add(target, i);
  }
  out.endObject();
}

/** An object array's references: each non-null element by index (its class, as an instance's, is implied). */
export function arrayEdges(length: number, idSize: number, elements: Fields, out: EdgeOut): void {
  for (let i = 0; i < length; i++) {
    const target = elements.idAt(i * idSize);
    if (target !== 0) out.add(target, i);
  }
  out.endObject();
}
