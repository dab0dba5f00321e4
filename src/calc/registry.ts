import { beamCalc } from './beam.ts';
import { flinkCalc } from './flink.ts';
import { flinkSlotsCalc } from './flink-slots.ts';
import { glueCalc } from './glue.ts';
import { sparkCalc } from './spark.ts';
import type { CalcSystem } from './system.ts';

/** Every calculator, by system name. Adding one: one file here, one line in this map. */
export const CALC_SYSTEMS: Readonly<Record<string, CalcSystem>> = {
  spark: sparkCalc,
  glue: glueCalc,
  flink: flinkCalc,
  'flink-slots': flinkSlotsCalc,
  beam: beamCalc,
};

export const CALC_NAMES = Object.keys(CALC_SYSTEMS).join('|');
