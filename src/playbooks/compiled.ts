import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Playbook } from '../engine/playbook/schema.ts';
import { packagePath } from '../paths.ts';
import { loadPlaybooks } from './load.ts';

/** Where the build writes the shipped playbooks, already validated (npm run build). */
export const COMPILED_PLAYBOOKS = packagePath('dist', 'playbooks.json');

const SOURCE_FILES = ['playbook.yaml', 'procedure.yaml'];

interface CompiledPlaybooks {
  /** sourcesHash of the folder the playbooks were validated from. */
  hash: string;
  /** Each playbook with `dir` relative to that folder, so the file does not depend on where it was built. */
  playbooks: Playbook[];
}

/** A hash over every file loadPlaybooks reads in `root` (names and bytes), so any edit changes it. */
export function sourcesHash(root: string): string {
  const hash = createHash('sha256');
  const folders = readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  for (const name of folders.map((entry) => entry.name).sort()) {
    for (const file of SOURCE_FILES) {
      const path = join(root, name, file);
      hash.update(`${name}/${file}\0`);
      hash.update(existsSync(path) ? readFileSync(path) : '\0missing\0');
    }
  }
  return hash.digest('hex');
}

/** Validates the playbooks in `root` (YAML + zod + lint) and writes them as JSON for fast start-up. */
export function writeCompiledPlaybooks(root: string, target: string = COMPILED_PLAYBOOKS): number {
  const playbooks = loadPlaybooks(root).map((p) => ({ ...p, dir: relative(root, p.dir) }));
  const compiled: CompiledPlaybooks = { hash: sourcesHash(root), playbooks };
  writeFileSync(target, `${JSON.stringify(compiled)}\n`);
  return playbooks.length;
}

/**
 * The playbooks validated at build time, when they were built from `root` as it is now; undefined
 * when there is no compiled file or any playbook file changed since (the caller then loads the YAML).
 */
export function readCompiledPlaybooks(
  root: string,
  source: string = COMPILED_PLAYBOOKS,
): Playbook[] | undefined {
  if (!existsSync(source)) return undefined;
  let compiled: CompiledPlaybooks;
  try {
    compiled = JSON.parse(readFileSync(source, 'utf8')) as CompiledPlaybooks;
  } catch {
    return undefined;
  }
  if (compiled.hash !== sourcesHash(root)) return undefined;
  return compiled.playbooks.map((p) => ({ ...p, dir: join(root, p.dir) }));
}
