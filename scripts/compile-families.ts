import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { compiledFamiliesJson } from '../src/engine/extractors/families/compile.ts';

// Build step (scripts/build.mjs runs it before bundling): validates the message families kept as
// data in src/engine/extractors/families/*.yaml and writes compiled.json beside them, which the
// engine imports. A test fails when the committed compiled.json is out of date.
const dir = new URL('../src/engine/extractors/families/', import.meta.url);
const sources = readdirSync(dir)
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => ({
    name: `src/engine/extractors/families/${name}`,
    text: readFileSync(new URL(name, dir), 'utf8'),
  }));
writeFileSync(new URL('compiled.json', dir), compiledFamiliesJson(sources));
process.stdout.write(`memdoctor build: ${sources.length} message family files compiled\n`);
