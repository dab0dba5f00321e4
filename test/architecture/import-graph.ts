import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One import: from a file to a file under the same root (`engine/facts.ts`) or to a package (`node:fs`). */
export interface Import {
  from: string;
  to: string;
  /** `import type` / `export type`: erased at run time, yet still a dependency of the code's shape. */
  typeOnly: boolean;
  /** `import('...')`: loaded when run, still a dependency. */
  dynamic?: true;
}

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

// Static imports and re-exports (`import x from`, `import type`, `export { } from`, side-effect
// imports, across lines) and dynamic `import('...')`.
const STATIC = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'([^']+)'/gm;
const DYNAMIC = /\bimport\(\s*'([^']+)'\s*\)/g;

function importsOf(root: string, file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const from = relative(root, file);
  const target = (spec: string) =>
    spec.startsWith('.') ? relative(root, resolve(dirname(file), spec)) : spec;
  const found: Import[] = [];
  for (const m of text.matchAll(STATIC))
    found.push({ from, to: target(m[3] ?? ''), typeOnly: m[2] !== undefined });
  for (const m of text.matchAll(DYNAMIC))
    found.push({ from, to: target(m[1] ?? ''), typeOnly: false, dynamic: true });
  return found;
}

/** Every import of every .ts file under `root`. */
export function readImports(root: string): Import[] {
  return sourceFiles(root).flatMap((file) => importsOf(root, file));
}

/** Where a file belongs: its top folder under the root, or the file itself (`config.ts`). */
export const layer = (path: string) => path.split('/')[0] ?? path;
export const isPackage = (to: string) => !to.endsWith('.ts') && !to.endsWith('.json');
const pkg = (to: string) =>
  to.startsWith('@') ? to.split('/').slice(0, 2).join('/') : (to.split('/')[0] ?? to);
const edge = (i: Import) => `${i.from} -> ${i.to}`;

/** Imports from a layer into a layer it must not import (`from -> to`), static, dynamic or type-only. */
export function forbiddenImports(
  imports: readonly Import[],
  name: string,
  forbidden: readonly string[],
): string[] {
  return imports
    .filter((i) => layer(i.from) === name && !isPackage(i.to) && forbidden.includes(layer(i.to)))
    .map(edge);
}

/** Packages a layer uses that it must not. */
export function forbiddenPackages(
  imports: readonly Import[],
  name: string,
  forbidden: readonly string[],
): string[] {
  return imports
    .filter((i) => layer(i.from) === name && isPackage(i.to) && forbidden.includes(pkg(i.to)))
    .map(edge);
}

function graph(imports: readonly Import[]): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const i of imports) if (!isPackage(i.to)) edges.set(i.from, [...(edges.get(i.from) ?? []), i.to]);
  return edges;
}

/** Every import cycle, type-only and dynamic imports included: each as `a -> b -> a`. */
export function importCycles(imports: readonly Import[]): string[] {
  const edges = graph(imports);
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[] = [];
  const visit = (file: string, trail: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const next of edges.get(file) ?? []) visit(next, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of edges.keys()) visit(file, []);
  return cycles;
}

/**
 * Paths by which a file of layer `from` reaches a file of layer `to` through any chain of imports
 * (a root in between included): one shortest path per starting file, as `a -> b -> c`.
 */
export function reachPaths(imports: readonly Import[], from: string, to: string): string[] {
  const edges = graph(imports);
  const starts = [...edges.keys()].filter((f) => layer(f) === from);
  return starts.flatMap((start) => {
    const seen = new Map<string, string[]>([[start, [start]]]);
    const queue = [start];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      for (const next of edges.get(file) ?? []) {
        if (seen.has(next)) continue;
        const path = [...(seen.get(file) ?? []), next];
        if (layer(next) === to) return [path.join(' -> ')];
        seen.set(next, path);
        queue.push(next);
      }
    }
    return [];
  });
}
