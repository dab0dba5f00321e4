import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

// The yaml library costs start-up time (its bundle is a quarter of a megabyte) and a diagnosis rarely
// needs it: the shipped playbooks are read from their compiled JSON, and only a pasted pod in YAML is
// parsed. So it loads on first use, synchronously, from the installed package.
const load = createRequire(import.meta.url);
let library: typeof Yaml | undefined;

/** The yaml library, loaded on the first call. */
export function yaml(): typeof Yaml {
  library ??= load('yaml') as typeof Yaml;
  return library;
}
