import { z } from 'zod';
import type { AlertEvent, AlertField } from '../../incidents/types.ts';

/** What a payload holds: alerts to route, or why it holds none memdoctor acts on (answered 2xx, counted). */
export interface Parsed {
  events: AlertEvent[];
  ignored?: string;
}

/** A payload that is not what its sender sends; answered 400 with the message. */
export class PayloadInvalidError extends Error {}

/** `schema` applied to `json`, or a PayloadInvalidError naming each field that is wrong. */
export function validated<T>(schema: z.ZodType<T>, json: unknown, what: string): T {
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new PayloadInvalidError(`not ${what}:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** A JSON value as routing reads it (what JSON.parse gave, checked once). */
export const Json: z.ZodType<AlertField> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(Json), z.record(z.string(), Json)]),
);

export const JsonObject = z.record(z.string(), Json);

/** Text cut to one line of at most `max` characters, for a thread's title. */
export function titleOf(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
