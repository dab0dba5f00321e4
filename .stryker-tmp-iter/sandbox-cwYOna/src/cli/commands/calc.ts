// @ts-nocheck
import { UsageError } from '../../errors.ts';
import { beamCalc } from '../calc/beam.ts';
import { flagHelp, parseFlags } from '../calc/flags.ts';
import { flinkCalc } from '../calc/flink.ts';
import { flinkSlotsCalc } from '../calc/flink-slots.ts';
import { glueCalc } from '../calc/glue.ts';
import { sparkCalc } from '../calc/spark.ts';
import type { CalcSystem } from '../calc/system.ts';
import type { Command } from '../command.ts';

/** The calculators, by system name. */
export const CALC_SYSTEMS: Readonly<Record<string, CalcSystem>> = {
  spark: sparkCalc,
  glue: glueCalc,
  flink: flinkCalc,
  'flink-slots': flinkSlotsCalc,
  beam: beamCalc,
};

const names = Object.keys(CALC_SYSTEMS).join('|');

function systemHelp(system: CalcSystem): string {
  return `memdoctor calc ${system.name} [--json] [flags]\n${system.summary}\n${flagHelp(system.flags)}\n`;
}

/** `memdoctor calc spark|glue|flink|beam [--json] [--<setting> value ...]`. */
export const calcCommand: Command = {
  name: 'calc',
  summary: 'compute memory budgets the way Spark, Glue, Flink and Beam/Dataflow do',
  usage: `memdoctor calc ${names} [--json] [--<setting> value ...] (memdoctor calc <system> help lists flags)`,
  async run(args, io) {
    const [name, ...rest] = args;
    const system = name ? CALC_SYSTEMS[name] : undefined;
    if (!system)
      throw new UsageError(`calc needs a system: one of ${names}${name ? `; got "${name}"` : ''}.`);
    if (rest[0] === 'help') {
      io.stdout.write(systemHelp(system));
      return 0;
    }
    const json = rest.includes('--json');
    const values = parseFlags(
      rest.filter((a) => a !== '--json'),
      system.flags,
    );
    const result = system.run(values);
    io.stdout.write(json ? `${JSON.stringify(result.json)}\n` : result.text);
    return 0;
  },
};
