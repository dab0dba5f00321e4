import { numberValue } from './settings.ts';
import type { Derivation } from './types.ts';

/** The slot request timeout in seconds, as the user will set it (`slot.request.timeout` is in ms). */
export const flinkSlots: Derivation = (book): Record<string, string> => {
  const ms =
    numberValue(book, 'flink.slot-timeout', 'timeoutMs') ?? numberValue(book, 'flink.no-slots', 'timeoutMs');
  if (ms === undefined) return {};
  return { 'slots.timeout': `${Math.round(ms / 1000)} s`, 'slots.timeout-ms': String(ms) };
};
