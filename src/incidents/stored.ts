import { z } from 'zod';
import { ErrorCode, MemdoctorError } from '../errors.ts';
import type { AlertField, RoutedAlert } from './types.ts';

const FieldSchema: z.ZodType<AlertField> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(FieldSchema),
    z.record(z.string(), FieldSchema),
  ]),
);

/** A RoutedAlert as stored: what a worker reads back is checked as what a receiver handed in. */
export const RoutedAlertSchema: z.ZodType<RoutedAlert> = z.object({
  event: z.object({
    source: z.enum(['alertmanager', 'pagerduty', 'sns', 'gcp-monitoring']),
    kind: z.string(),
    incidentKey: z.string().min(1),
    deliveryId: z.string().min(1),
    status: z.enum(['firing', 'resolved']),
    title: z.string(),
    startsAt: z.string().optional(),
    endsAt: z.string().optional(),
    receivedAt: z.string(),
    fields: z.record(z.string(), FieldSchema),
  }),
  route: z.string(),
  channel: z.string().min(1),
  checks: z.array(z.object({ connector: z.string(), id: z.string() })),
});

/** Parses what was stored, or says which stored value is broken (a bug or a hand edit, never input). */
export function readStoredJson<T>(schema: z.ZodType<T>, text: string, what: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new MemdoctorError(ErrorCode.Internal, `the stored ${what} is not JSON`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    throw new MemdoctorError(
      ErrorCode.Internal,
      `the stored ${what} does not hold what memdoctor wrote: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    );
  return parsed.data;
}
