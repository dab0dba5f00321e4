import { z } from 'zod';
import { CaseInputInvalidError, ErrorCode, MemdoctorError } from '../../errors.ts';
import {
  type CaseRecord,
  type CaseWhere,
  CaseWhereSchema,
  LeftOutSchema,
  MAX_STORED_INPUT_CHARS,
  StoredInputSchema,
} from '../record.ts';
import type { CaseAddition } from './types.ts';

/** An addition checked at the store's door, with its input as the JSON to write. */
export interface CheckedAddition {
  inputJson?: string;
  leftOutJson?: string;
}

/** Checks what is about to be written: a malformed or oversized input is refused whole, with why. */
export function checkAddition(where: CaseWhere, addition: CaseAddition): CheckedAddition {
  const place = CaseWhereSchema.safeParse(where);
  if (!place.success) throw new CaseInputInvalidError('case', z.prettifyError(place.error));
  if (addition.input) {
    const parsed = StoredInputSchema.safeParse(addition.input);
    if (!parsed.success)
      throw new CaseInputInvalidError(addition.input.name ?? 'input', z.prettifyError(parsed.error));
    const json = JSON.stringify(parsed.data);
    if (json.length > MAX_STORED_INPUT_CHARS)
      throw new CaseInputInvalidError(
        parsed.data.name,
        `its facts take ${json.length} characters, more than the ${MAX_STORED_INPUT_CHARS} a case keeps per input`,
      );
    return { inputJson: json };
  }
  const left = LeftOutSchema.safeParse(addition.leftOut);
  if (!left.success) throw new CaseInputInvalidError('input', 'neither facts nor a reason to leave it out');
  return { leftOutJson: JSON.stringify(left.data) };
}

function parseJson(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

/** Reads stored JSON back (a boundary): a case memdoctor cannot read is reported, not guessed at. */
export function readStored<T>(schema: z.ZodType<T>, json: string, what: string): T {
  const parsed = schema.safeParse(parseJson(json));
  if (parsed.success) return parsed.data;
  throw new MemdoctorError(
    ErrorCode.Internal,
    `a stored case's ${what} cannot be read (written by another memdoctor version?); start a new thread.`,
  );
}

/** The record as the caller may keep it: a copy, so nothing outside the store changes stored state. */
export function copyRecord(record: CaseRecord): CaseRecord {
  return structuredClone(record);
}
