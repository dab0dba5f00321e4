// @ts-nocheck
import type { Command } from './command.ts';
import { calcCommand } from './commands/calc.ts';
import { diagnoseCommand } from './commands/diagnose.ts';
import { extractorsCommand } from './commands/extractors.ts';
import { parseCommand } from './commands/parse.ts';
import { playbooksCommand } from './commands/playbooks.ts';
import { resumeCommand } from './commands/resume.ts';
import { walkCommand } from './commands/walk.ts';

/** Every `memdoctor` verb. Adding one: one file under commands/, one line here. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  diagnose: diagnoseCommand,
  playbooks: playbooksCommand,
  extractors: extractorsCommand,
  walk: walkCommand,
  resume: resumeCommand,
  calc: calcCommand,
  parse: parseCommand,
};
