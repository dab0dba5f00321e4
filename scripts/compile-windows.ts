import { writeFileSync } from 'node:fs';
import { shippedWindowsJson } from '../src/engine/collector.ts';

// Build step (scripts/build.mjs runs it before bundling): chooses the rarest scan window of every
// trigger of the shipped extractors and writes src/engine/ingest/windows.json, which the engine
// imports, so no run pays for the choice at start. A test fails when the committed file is out of date.
const target = new URL('../src/engine/ingest/windows.json', import.meta.url);
const json = shippedWindowsJson();
writeFileSync(target, json);
process.stdout.write(`memdoctor build: ${Object.keys(JSON.parse(json)).length} scan windows chosen\n`);
