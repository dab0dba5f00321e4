import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

interface Import {
  from: string;
  /** A file under src/ (`engine/facts.ts`), or a package (`openai`, `node:fs`). */
  to: string;
  /** `import type` / `export type`: erased at run time, so no cycle at run time. */
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

// Static imports and re-exports (`import x from`, `import type`, `export { } from`, side-effect
// imports) and dynamic `import('...')`.
const STATIC = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'([^']+)'/gm;
const DYNAMIC = /\bimport\(\s*'([^']+)'\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const from = relative(SRC, file);
  const target = (spec: string) =>
    spec.startsWith('.') ? relative(SRC, resolve(dirname(file), spec)) : spec;
  const found: Import[] = [];
  for (const m of text.matchAll(STATIC))
    found.push({ from, to: target(m[3] ?? ''), typeOnly: m[2] !== undefined });
  for (const m of text.matchAll(DYNAMIC)) found.push({ from, to: target(m[1] ?? ''), typeOnly: false });
  return found;
}

const IMPORTS = sourceFiles(SRC).flatMap(importsOf);

/** Where a file belongs: its top folder under src/, or the file itself (`config.ts`). */
const layer = (path: string) => path.split('/')[0] ?? path;
const isPackage = (to: string) => !to.endsWith('.ts') && !to.endsWith('.json');
const pkg = (to: string) =>
  to.startsWith('@') ? to.split('/').slice(0, 2).join('/') : (to.split('/')[0] ?? to);

/** Surfaces and the model: what the inner layers never reach. */
const SURFACES = ['cli', 'slack'];
const MODEL = ['llm'];
const SURFACE_PACKAGES = ['@slack/bolt', '@slack/web-api', '@slack/types', 'openai'];

/** For each layer, the src/ folders and files it must not import. */
const FORBIDDEN: Readonly<Record<string, readonly string[]>> = {
  engine: [
    ...SURFACES,
    ...MODEL,
    'walkthrough',
    'config.ts',
    'diagnosis',
    'setup',
    'playbooks',
    'calc',
    'redis',
  ],
  walkthrough: [...SURFACES, ...MODEL, 'config.ts', 'diagnosis', 'setup', 'calc'],
  redis: [...SURFACES, ...MODEL, 'walkthrough', 'engine', 'config.ts', 'diagnosis', 'setup', 'calc'],
  /** Outcomes know ids and counts only: no surface, engine or walkthrough. */
  stats: [...SURFACES, ...MODEL, 'walkthrough', 'engine', 'config.ts', 'diagnosis', 'setup', 'calc'],
  calc: [...SURFACES, ...MODEL, 'walkthrough', 'config.ts', 'diagnosis', 'setup'],
  diagnosis: [...SURFACES, 'config.ts', 'setup'],
  llm: [...SURFACES, 'diagnosis', 'setup', 'walkthrough'],
  playbooks: [...SURFACES, ...MODEL, 'setup'],
  cli: ['slack'],
  slack: ['cli'],
  'config.ts': [...SURFACES, ...MODEL, 'engine', 'walkthrough', 'diagnosis', 'setup'],
};

/** Packages a layer must not use: the engine and the walkthroughs know no Slack, no model SDK. */
const FORBIDDEN_PACKAGES: Readonly<Record<string, readonly string[]>> = {
  engine: [...SURFACE_PACKAGES, 'ioredis', 'pino'],
  walkthrough: SURFACE_PACKAGES,
  diagnosis: SURFACE_PACKAGES,
  calc: SURFACE_PACKAGES,
  redis: SURFACE_PACKAGES,
};

describe('import rules', () => {
  it('reads the imports of every source file', () => {
    expect(IMPORTS.length).toBeGreaterThan(300);
    expect(IMPORTS).toContainEqual({ from: 'cli/main.ts', to: 'cli/registry.ts', typeOnly: false });
    expect(IMPORTS).toContainEqual({ from: 'main.ts', to: 'serve.ts', typeOnly: false });
    expect(IMPORTS).toContainEqual({ from: 'slack/deps.ts', to: 'llm/assist.ts', typeOnly: true });
  });

  it.each(Object.entries(FORBIDDEN))('%s imports none of its forbidden layers', (name, forbidden) => {
    const broken = IMPORTS.filter(
      (i) => layer(i.from) === name && !isPackage(i.to) && forbidden.includes(layer(i.to)),
    ).map((i) => `${i.from} -> ${i.to}`);
    expect(broken).toEqual([]);
  });

  it.each(Object.entries(FORBIDDEN_PACKAGES))('%s uses none of its forbidden packages', (name, forbidden) => {
    const broken = IMPORTS.filter(
      (i) => layer(i.from) === name && isPackage(i.to) && forbidden.includes(pkg(i.to)),
    ).map((i) => `${i.from} -> ${i.to}`);
    expect(broken).toEqual([]);
  });

  it('only src/config.ts reads the environment', () => {
    const readers = sourceFiles(SRC)
      .filter((file) =>
        /\bprocess\.env\b/.test(readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')),
      )
      .map((file) => relative(SRC, file));
    expect(readers).toEqual(['config.ts']);
  });

  it('has no import cycles at run time', () => {
    const edges = new Map<string, string[]>();
    for (const i of IMPORTS)
      if (!i.typeOnly && !isPackage(i.to)) edges.set(i.from, [...(edges.get(i.from) ?? []), i.to]);
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
    expect(cycles).toEqual([]);
  });
});
