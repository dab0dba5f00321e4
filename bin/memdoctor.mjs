#!/usr/bin/env node
// The installed `memdoctor` command: runs the built JavaScript in dist/ (npm ci / npm run build makes it).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('memdoctor: dist/ is missing; run `npm run build` in the memdoctor folder.\n');
  process.exit(2);
}
const { runMemdoctor } = await import(cli.href);
process.exitCode = await runMemdoctor(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
