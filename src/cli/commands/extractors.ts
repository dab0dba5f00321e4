import { listExtractors } from '../../usecases/list-extractors.ts';
import type { Command } from '../command.ts';

/** `memdoctor extractors`: what the engine can read from a log. */
export const extractorsCommand: Command = {
  async run(_args, io) {
    for (const e of listExtractors()) io.stdout.write(`${e.id.padEnd(22)} ${e.description}\n`);
    return 0;
  },
};
