import { lines } from './lines.ts';
import type { Parser } from './types.ts';

/** Every parser, by id. Adding one: one file, one line here. */
export const PARSERS: Readonly<Record<string, Parser>> = {
  lines,
};
