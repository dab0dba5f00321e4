// @ts-nocheck
import type { FlagSpecs, FlagValues } from './flags.ts';

/** One `memdoctor calc <system>` calculator: its flags and how it reports. */
export interface CalcSystem {
  readonly name: string;
  readonly summary: string;
  readonly flags: FlagSpecs;
  run(values: FlagValues): { text: string; json: unknown };
}
