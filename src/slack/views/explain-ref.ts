import { z } from 'zod';
import type { Diagnosis } from '../../usecases/types.ts';
import { cut } from './blocks.ts';
import { fitsButton, packJson, readJson } from './codec.ts';

/** What an Explain button carries: the diagnosis the model explains, so the click needs no stored state. */
const ExplainRefSchema = z.strictObject({
  p: z.string().min(1),
  t: z.string(),
  c: z.string().nullable(),
  a: z.array(z.string()),
  e: z.array(z.strictObject({ l: z.number().int().min(1), x: z.string() })),
});

const MAX_LINE = 240;

/** The diagnosis packed into a button value; evidence, then actions, are dropped from the end to fit. */
export function packExplainRef(d: Diagnosis): string {
  const ref = {
    p: d.playbook,
    t: cut(d.title, 120),
    c: d.cause,
    a: d.actions.map((a) => cut(a, MAX_LINE)),
    e: d.evidence.map((e) => ({ l: e.line, x: cut(e.text, MAX_LINE) })),
  };
  while (!fitsButton(ref) && ref.e.length > 1) ref.e.pop();
  while (!fitsButton(ref) && ref.a.length > 0) ref.a.pop();
  return packJson(ref);
}

/** The diagnosis back from a button value (a boundary: parsed strictly), or undefined. */
export function readExplainRef(value: string | undefined): Diagnosis | undefined {
  const ref = readJson(ExplainRefSchema, value);
  if (!ref) return undefined;
  return {
    playbook: ref.p,
    title: ref.t,
    confidence: 0,
    cause: ref.c,
    actions: ref.a,
    evidence: ref.e.map((e) => ({ line: e.l, text: e.x })),
    facts: {},
  };
}
