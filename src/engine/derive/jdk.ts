import type { Derivation } from './types.ts';

/** The JDK version as seen in the input. */
export const jdk: Derivation = (book): Record<string, string> => {
  const version = book.find('jdk.version')[0]?.values?.version;
  return typeof version === 'string' ? { 'jdk.version': version } : {};
};
