// @ts-nocheck
import { z } from 'zod';
import type { DiagnosisFacts } from '../walkthrough/index.ts';

const ValueSchema = z.union([z.string(), z.number(), z.boolean()]);

/** What the "Start walkthrough" button carries from the diagnosis, so prefill works without stored state. */
export const WalkSeedSchema = z.strictObject({
  p: z.string().min(1),
  f: z.array(
    z.strictObject({ kind: z.string().min(1), values: z.record(z.string(), ValueSchema).optional() }),
  ),
  v: z.record(z.string(), z.string()),
});

export type WalkSeed = z.infer<typeof WalkSeedSchema>;

/** Slack's limit on a button's value. */
const MAX_VALUE = 2000;

/**
 * Packs what a diagnosis found (see diagnosisFacts) into a button value. When they do not fit in 2000 characters
 * the values go first, then the findings' details: the walkthrough then asks what it could have known.
 */
export function packWalkSeed(playbook: string, known: DiagnosisFacts): string {
  const values = Object.entries(known.values);
  let findings = known.facts;
  let seed: WalkSeed = { p: playbook, f: findings, v: Object.fromEntries(values) };
  while (JSON.stringify(seed).length > MAX_VALUE && values.length > 0) {
    values.pop();
    seed = { ...seed, v: Object.fromEntries(values) };
  }
  if (JSON.stringify(seed).length > MAX_VALUE) findings = findings.map((f) => ({ kind: f.kind }));
  seed = { ...seed, f: findings };
  while (JSON.stringify(seed).length > MAX_VALUE && seed.f.length > 0)
    seed = { ...seed, f: seed.f.slice(0, -1) };
  return JSON.stringify(seed);
}

/** Reads a start button's value: a packed seed, or a bare playbook id (alternatives, `walk`). */
export function readWalkSeed(value: string | undefined): WalkSeed | undefined {
  if (!value) return undefined;
  if (!value.startsWith('{')) return /^[a-z][a-z0-9-]*$/.test(value) ? { p: value, f: [], v: {} } : undefined;
  try {
    return WalkSeedSchema.safeParse(JSON.parse(value)).data;
  } catch {
    return undefined;
  }
}
