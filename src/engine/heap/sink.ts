import type { Fields } from './cursor.ts';

/** What a pass over a dump wants from it; the parser skips the bytes of whatever a sink leaves out. */
export interface HprofSink {
  header?(version: string, idSize: number, timestamp: number): void;
  utf8?(id: number, text: string): void;
  loadClass?(serial: number, classId: number, nameId: number): void;
  frame?(
    id: number,
    methodId: number,
    signatureId: number,
    sourceId: number,
    classSerial: number,
    line: number,
  ): void;
  trace?(serial: number, threadSerial: number, frameIds: number[]): void;
  /** kind: the root sub-record tag (0xff for unknown); thread and frame are -1 where the record has none. */
  root?(kind: number, id: number, threadSerial: number, frame: number, traceSerial: number): void;
  classDump?(
    info: { id: number; superId: number; loaderId: number; fields: { nameId: number; type: number }[] },
    statics: { nameId: number; type: number; id: number }[],
  ): void;
  /**
   * fields reads the identifier at a byte offset of the instance's field values (only during the call).
   * Returns the byte count the class says an instance has, or -1 when the class has no CLASS DUMP yet.
   */
  instance?(id: number, classId: number, length: number, fields: Fields): number;
  /** Element i's identifier is at byte offset i * idSize of elements (only during the call). */
  objectArray?(id: number, classId: number, length: number, elements: Fields): void;
  primitiveArray?(id: number, type: number, length: number): void;
  /** Asked before a primitive array's content is handed over; only the thread-name pass says yes. */
  wantsContent?(id: number): boolean;
  content?(id: number, type: number, bytes: Uint8Array): void;
}
