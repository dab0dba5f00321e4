// @ts-nocheck
import { z } from 'zod';

/** The `diagnose --json` contract (issue 2), one object per input line. Scripts rely on it: keep it strict. */
export const ReportSchema = z.strictObject({
  source: z.string().min(1),
  input: z.strictObject({ bytes: z.number().int().nonnegative(), lines: z.number().int().nonnegative() }),
  diagnoses: z.array(
    z.strictObject({
      playbook: z.string().regex(/^[a-z][a-z0-9-]*$/),
      title: z.string().min(1),
      confidence: z.number().min(0).max(1),
      cause: z.string().min(1).nullable(),
      evidence: z
        .array(z.strictObject({ line: z.number().int().positive(), text: z.string().min(1) }))
        .min(1),
      facts: z.record(z.string(), z.unknown()),
      actions: z.array(z.string().min(1)),
    }),
  ),
});
export type Report = z.infer<typeof ReportSchema>;

/** Parses stdout of `diagnose --json`: one JSON object per line, each checked against the contract. */
export function parseReports(stdout: string): Report[] {
  const lines = stdout.split('\n');
  if (lines.pop() !== '') throw new Error('stdout must end with a newline');
  return lines.map((line) => ReportSchema.parse(JSON.parse(line)));
}
