import { z } from 'zod';
import type { Diagnosis } from '../../usecases/types.ts';
import { cut } from './blocks.ts';
import { fitsButton, packJson, readJson } from './codec.ts';

/** What a "Show alternatives" button carries, so the click needs no stored state. */
const AlternativesSchema = z.array(z.strictObject({ p: z.string(), t: z.string(), c: z.number() }));

export type AlternativeRef = z.infer<typeof AlternativesSchema>[number];

/** The other candidates packed into a button value, as many as fit, best first. */
export function packAlternatives(
  rest: readonly Pick<Diagnosis, 'playbook' | 'title' | 'confidence'>[],
): string {
  const refs: AlternativeRef[] = [];
  for (const d of rest) {
    const ref = { p: d.playbook, t: cut(d.title, 80), c: Math.round(d.confidence * 100) / 100 };
    if (!fitsButton([...refs, ref])) break;
    refs.push(ref);
  }
  return packJson(refs);
}

/** The candidates back from a click, or undefined when the value is not ours. */
export function readAlternatives(value: string | undefined): AlternativeRef[] | undefined {
  return readJson(AlternativesSchema, value);
}
