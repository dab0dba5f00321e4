#!/usr/bin/env node
// Runs the built `memdoctor diagnose --json` over every input the project is judged on (the shared
// corpus and templates, the playbooks' fixtures, test/fixtures) and writes one sorted NDJSON file, so a
// refactor can prove its output is byte-identical:
//
//   node scripts/build.mjs && node scripts/snapshot-diagnose.mjs /tmp/before.ndjson
//   ...change...
//   node scripts/build.mjs && node scripts/snapshot-diagnose.mjs /tmp/after.ndjson
//   cmp /tmp/before.ndjson /tmp/after.ndjson
//
// A corpus case with a `hint` also runs with `--engine HINT`, as the scorer runs it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const shared = resolve(root, '..', '..', 'shared');
const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: node scripts/snapshot-diagnose.mjs OUT.ndjson\n');
  process.exit(2);
}

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

function inputs() {
  const playbooks = readdirSync(join(root, 'playbooks')).map((id) => join(root, 'playbooks', id, 'fixtures'));
  const dirs = [
    join(shared, 'corpus', 'cases'),
    join(shared, 'templates', 'cases'),
    join(root, 'test', 'fixtures'),
    ...playbooks,
  ];
  return dirs
    .flatMap(filesUnder)
    .filter((file) => statSync(file).size > 0)
    .sort();
}

/** Cases whose poster named the system: the scorer passes it as --engine. */
function hinted() {
  return ['corpus', 'templates'].flatMap((set) => {
    const index = join(shared, set, 'index.jsonl');
    if (!existsSync(index)) return [];
    return readFileSync(index, 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line))
      .filter((c) => c.hint)
      .map((c) => ({ file: join(shared, set, 'cases', `${c.id}.txt`), hint: c.hint }));
  });
}

function diagnose(files, extra = []) {
  const run = spawnSync(
    process.execPath,
    [join(root, 'bin', 'memdoctor.mjs'), 'diagnose', '--json', ...extra, ...files],
    { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 },
  );
  if (run.status !== 0 && run.status !== 1) {
    process.stderr.write(`diagnose exited ${run.status}: ${run.stderr}\n`);
    process.exit(1);
  }
  return run.stdout.split('\n').filter((line) => line.trim());
}

const lines = [];
lines.push(...diagnose(inputs()).map((line) => `plain\t${line}`));
for (const { file, hint } of hinted()) {
  lines.push(...diagnose([file], ['--engine', hint]).map((line) => `hint=${hint}\t${line}`));
}
writeFileSync(out, `${lines.join('\n')}\n`);
process.stdout.write(`${lines.length} outputs written to ${out}\n`);
