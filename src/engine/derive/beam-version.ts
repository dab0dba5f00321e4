import type { Derivation } from './types.ts';

/** The Beam Python release the input shows and, when it has a known leak, the issue and the fix release. */
export const beamVersion: Derivation = (book): Record<string, string> => {
  const values: Record<string, string> = {};
  const version = book.find('beam.version')[0]?.values?.version;
  if (typeof version === 'string') values['beam.version'] = version;
  const leak = book.find('beam.known-leak')[0]?.values;
  if (typeof leak?.issue === 'string' && typeof leak.fixed === 'string') {
    values['beam.leak.issue'] = leak.issue;
    values['beam.leak.fixed'] = leak.fixed;
    if (typeof leak.version === 'string') values['beam.leak.version'] = leak.version;
  }
  return values;
};
