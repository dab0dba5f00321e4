import type { FactBook } from '../facts.ts';
import { parseSize } from '../units.ts';

/** The size of the first of `keys` set in the input (Spark and the JVM read bare numbers as MiB here). */
export function sizeSetting(book: FactBook, keys: readonly string[], defaultUnit = 'm'): number | undefined {
  for (const key of keys) {
    const value = book.config(key)?.values?.value;
    if (typeof value !== 'string') continue;
    const bytes = parseSize(value, defaultUnit);
    if (bytes !== undefined) return bytes;
  }
  return undefined;
}

/** A numeric value of the first fact of a kind. */
export function numberValue(book: FactBook, kind: string, key: string): number | undefined {
  const value = book.find(kind)[0]?.values?.[key];
  return typeof value === 'number' ? value : undefined;
}
