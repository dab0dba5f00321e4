import { z } from 'zod';
import type { Diagnosis } from '../engine/index.ts';
import type { Finding } from '../walkthrough/record.ts';

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

function findingsOf(d: Diagnosis): Finding[] {
  const signals = (d.facts.signals ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(signals).map(([kind, signal]) => {
    const values: Record<string, string | number | boolean> = {};
    for (const [k, v] of Object.entries(signal))
      if (k !== 'weight' && k !== 'lines' && ['string', 'number', 'boolean'].includes(typeof v))
        values[k] = v as string | number | boolean;
    return Object.keys(values).length > 0 ? { kind, values } : { kind };
  });
}

/**
 * Packs a diagnosis' facts and values into a button value. When they do not fit in 2000 characters
 * the values go first, then the findings' details: the walkthrough then asks what it could have known.
 */
export function packWalkSeed(d: Diagnosis): string {
  const values = Object.entries((d.facts.values ?? {}) as Record<string, string>);
  let findings = findingsOf(d);
  let seed: WalkSeed = { p: d.playbook, f: findings, v: Object.fromEntries(values) };
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
