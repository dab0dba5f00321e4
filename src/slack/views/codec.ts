import type { z } from 'zod';
import { ErrorCode, MemdoctorError } from '../../errors.ts';
import { LIMITS } from './limits.ts';

/** True when the value's JSON fits a button's value. */
export function fitsButton(value: unknown, max: number = LIMITS.buttonValue): boolean {
  return JSON.stringify(value).length <= max;
}

/**
 * The JSON a payload travels as (a button value, a modal's metadata). Payload codecs fit their value
 * first; one that still does not fit is a bug, so it fails here rather than as a cut, unreadable value.
 */
export function packJson(value: unknown, max: number = LIMITS.buttonValue): string {
  const json = JSON.stringify(value);
  if (json.length > max)
    throw new MemdoctorError(
      ErrorCode.Internal,
      `a ${json.length}-character payload does not fit Slack's ${max}`,
    );
  return json;
}

/** A payload back from Slack (a boundary: parsed strictly), or undefined when it is not one of ours. */
export function readJson<S extends z.ZodType>(
  schema: S,
  raw: string | undefined | null,
): z.infer<S> | undefined {
  if (!raw) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
