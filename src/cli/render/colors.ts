import { createColors } from 'picocolors';
import { terminalEnv } from '../../config.ts';

/** The few styles the CLI uses; every one is the identity when colour is off. */
export type Colors = Pick<ReturnType<typeof createColors>, 'bold' | 'dim' | 'red' | 'yellow' | 'cyan'>;

type TerminalEnv = ReturnType<typeof terminalEnv>;

export const PLAIN: Colors = createColors(false);

/**
 * Colour only for a person at a terminal: FORCE_COLOR (not "0") turns it on anywhere, NO_COLOR
 * (https://no-color.org) turns it off, otherwise only when stdout is a TTY whose TERM is not "dumb".
 * Decided here rather than by picocolors' default, which also colours pipes on CI.
 */
export function colorEnabled(stdout: { isTTY?: boolean }, env: TerminalEnv = terminalEnv()): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stdout.isTTY === true && env.TERM !== 'dumb';
}

export function terminalColors(stdout: object, env: TerminalEnv = terminalEnv()): Colors {
  return createColors(colorEnabled(stdout as { isTTY?: boolean }, env));
}
