import { z } from 'zod';
import type { DiagnosisFacts } from '../../walkthrough/index.ts';
import { fitsButton, packJson, readJson } from './codec.ts';

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

/**
 * Packs what a diagnosis found (see walkthroughStart) into a button value. When they do not fit, the
 * values go first, then the findings' details, then findings: the walkthrough then asks what it could
 * have known.
 */
export function packWalkSeed(playbook: string, known: DiagnosisFacts): string {
  const values = Object.entries(known.values);
  let findings = known.facts;
  let seed: WalkSeed = { p: playbook, f: findings, v: Object.fromEntries(values) };
  while (!fitsButton(seed) && values.length > 0) {
    values.pop();
    seed = { ...seed, v: Object.fromEntries(values) };
  }
  if (!fitsButton(seed)) findings = findings.map((f) => ({ kind: f.kind }));
  seed = { ...seed, f: findings };
  while (!fitsButton(seed) && seed.f.length > 0) seed = { ...seed, f: seed.f.slice(0, -1) };
  return packJson(seed);
}

/** Reads a start button's value: a packed seed, or a bare playbook id (alternatives, suggestion). */
export function readWalkSeed(value: string | undefined): WalkSeed | undefined {
  if (!value) return undefined;
  if (!value.startsWith('{')) return /^[a-z][a-z0-9-]*$/.test(value) ? { p: value, f: [], v: {} } : undefined;
  return readJson(WalkSeedSchema, value);
}
