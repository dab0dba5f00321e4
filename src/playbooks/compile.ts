import { writeCompiledPlaybooks } from './compiled.ts';
import { PLAYBOOKS_DIR } from './load.ts';

/** Build step (scripts/build.mjs runs the bundled copy): validate the shipped playbooks once, write JSON. */
const count = writeCompiledPlaybooks(PLAYBOOKS_DIR);
process.stdout.write(`memdoctor build: ${count} playbooks validated into dist/playbooks.json\n`);
