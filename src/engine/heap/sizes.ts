import { BasicType, valueSize } from './format.ts';

/**
 * Shallow sizes on the conventions of Eclipse MAT and VisualVM's heap library (its ObjectSizeSettings):
 * an HPROF dump does not record the JVM's object layout, so it is assumed. With 8-byte identifiers: a
 * 64-bit JVM with compressed oops and compressed class pointers (HotSpot's default below 32 GB of heap):
 * a 12-byte header, 4-byte references, arrays 16 bytes of header, every object rounded up to 8 bytes.
 * With 4-byte identifiers: a 32-bit JVM, an 8-byte header, arrays 12, the same rounding.
 */
export interface SizeModel {
  readonly layout: '64-bit, compressed oops and class pointers (assumed)' | '32-bit';
  readonly header: number;
  readonly arrayHeader: number;
  readonly reference: number;
  readonly alignment: number;
}

/** The layout assumed for a dump with this identifier size. */
export function sizeModelFor(idSize: number): SizeModel {
  if (idSize === 4) return { layout: '32-bit', header: 8, arrayHeader: 12, reference: 4, alignment: 8 };
  return {
    layout: '64-bit, compressed oops and class pointers (assumed)',
    header: 12,
    arrayHeader: 16,
    reference: 4,
    alignment: 8,
  };
}

function align(bytes: number, alignment: number): number {
  return Math.ceil(bytes / alignment) * alignment;
}

/** Bytes a field of the basic type takes in the object (a reference: the model's reference size). */
export function fieldBytes(model: SizeModel, type: number): number {
  return type === BasicType.object ? model.reference : valueSize(type, 8);
}

/** An instance whose fields (its class's and every superclass's) take fieldsBytes. */
export function instanceSize(model: SizeModel, fieldsBytes: number): number {
  return align(model.header + fieldsBytes, model.alignment);
}

/** An array of length elements of elementBytes each. */
export function arraySize(model: SizeModel, length: number, elementBytes: number): number {
  return align(model.arrayHeader + length * elementBytes, model.alignment);
}
