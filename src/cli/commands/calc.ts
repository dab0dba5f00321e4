import { readFileSync } from 'node:fs';
import { UsageError } from '../../errors.ts';
import { calculate } from '../../usecases/calculate.ts';
import type { Command } from '../command.ts';

/** Reads a file a calculator flag names, from the local disk. */
function readLocalFile(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --${flag} file "${path}": ${(error as Error).message}`);
  }
}

/** `memdoctor calc spark|glue|flink|beam [--json] [--<setting> value ...]`. */
export const calcCommand: Command = {
  async run(args, io) {
    io.stdout.write(calculate(args, readLocalFile));
    return 0;
  },
};
