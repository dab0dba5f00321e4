import type { ChartData } from '../engine/charts/types.ts';
import type { FlagSpecs, FlagValues } from './flags.ts';

/**
 * One calculator (`memdoctor calc <system>`, `/memdoctor calc <system>`): its flags, named after the
 * system's own settings, and a pure run from their values to a text and a JSON answer. Files a flag
 * names are read by the surface before `run`.
 */
export interface CalcSystem {
  readonly name: string;
  readonly summary: string;
  readonly flags: FlagSpecs;
  /** `chart`: the model as a picture, for the calculators that have one. */
  run(values: FlagValues): { text: string; json: unknown; chart?: ChartData };
}
