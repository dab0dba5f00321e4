// @ts-nocheck
import type { FactBook } from '../facts.ts';

/** Values for action templates, computed from the facts of one input. Pure; missing inputs give no value. */
export type Derivation = (book: FactBook) => Record<string, string>;