import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * The folder holding memdoctor's package.json. Found by walking up from this module, so the same
 * answer comes from the TypeScript sources (src/) and from the bundle (dist/), wherever it is installed.
 */
export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`memdoctor: no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  root = dir;
  return root;
}

/** A file or folder shipped with memdoctor, named from the package root (e.g. 'src/redis/lua'). */
export function packagePath(...parts: string[]): string {
  return join(packageRoot(), ...parts);
}
