import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  forbiddenImports,
  forbiddenPackages,
  importCycles,
  reachPaths,
  readImports,
  sourceFiles,
} from './import-graph.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const IMPORTS = readImports(SRC);

/** Surfaces and the model: what the inner layers never reach. */
const SURFACES = ['cli', 'slack', 'mcp', 'alerts'];
const MODEL = ['llm'];
/**
 * What surfaces never import: they ask the use cases (src/usecases, src/diagnosis) instead. The
 * connectors and the calculators too: a fetch reached around the use cases would skip the access
 * rule and the caps (issue 35), and `calc` is answered by usecases/calculate.ts.
 */
const BELOW_THE_USE_CASES = ['engine', 'setup', 'redis', 'connectors', 'calc'];
/** The composition roots: they build everything and may import any layer; no inner layer imports them. */
const ROOTS = ['serve.ts', 'serve-incidents.ts', 'console.ts', 'memdoctor.ts', 'main.ts'];
const SLACK_PACKAGES = ['@slack/bolt', '@slack/web-api', '@slack/types'];
const MCP_PACKAGES = ['@modelcontextprotocol/sdk'];
const SURFACE_PACKAGES = [...SLACK_PACKAGES, ...MCP_PACKAGES, 'openai'];

/** What the inner layers (engine, walkthrough, redis, stats, dedupe, calc, config) never import. */
const INNER_NEVER = [
  ...SURFACES,
  ...MODEL,
  ...ROOTS,
  'config.ts',
  'diagnosis',
  'usecases',
  'setup',
  'calc',
  'dedupe',
];
/** INNER_NEVER but for the layer itself (and what else it may use). */
const innerNever = (...allowed: string[]) => INNER_NEVER.filter((name) => !allowed.includes(name));

/** For each layer, the src/ folders and files it must not import. */
const FORBIDDEN: Readonly<Record<string, readonly string[]>> = {
  engine: [...INNER_NEVER, 'walkthrough', 'playbooks', 'redis'],
  walkthrough: INNER_NEVER,
  redis: [...INNER_NEVER, 'walkthrough', 'engine'],
  /** Outcomes know ids and counts only: no surface, engine or walkthrough. */
  stats: [...INNER_NEVER, 'walkthrough', 'engine'],
  /** Slack's event dedupe: an interface Slack is handed, with a memory and a Redis store behind it. */
  dedupe: [...innerNever('dedupe'), 'walkthrough', 'engine'],
  /** Cases (issue 25): a store interface with memory and Redis behind it, over the engine's types. */
  cases: [...INNER_NEVER, 'walkthrough'],
  /**
   * The alert intake (issue 38): a queue interface with memory and Redis behind it, and the
   * contract the receivers hand alerts through. No surface, no use case, no engine: it stores.
   */
  incidents: [...INNER_NEVER, 'walkthrough', 'engine', 'cases', 'connectors'],
  calc: [...innerNever('calc'), 'walkthrough'],
  diagnosis: [...SURFACES, ...ROOTS, 'config.ts', 'setup', 'usecases', 'dedupe'],
  /** The use cases: what every surface calls; they know no surface and build nothing themselves. */
  usecases: [...SURFACES, ...ROOTS, 'config.ts', 'setup', 'dedupe'],
  setup: [...SURFACES, ...ROOTS, 'usecases'],
  llm: [...SURFACES, ...ROOTS, 'diagnosis', 'usecases', 'setup', 'walkthrough', 'dedupe'],
  playbooks: [...SURFACES, ...MODEL, ...ROOTS, 'usecases', 'setup', 'dedupe'],
  /** The CLI reads the console's root (src/console.ts) for what it builds; never the Slack root. */
  cli: ['slack', 'mcp', 'alerts', ...BELOW_THE_USE_CASES, 'serve.ts', 'memdoctor.ts', 'main.ts'],
  slack: ['cli', 'mcp', 'alerts', ...BELOW_THE_USE_CASES, ...ROOTS],
  /** The MCP server is handed what it uses (src/memdoctor.ts builds it): it imports no root at all. */
  mcp: ['cli', 'slack', 'alerts', ...BELOW_THE_USE_CASES, ...ROOTS],
  /** The alert receivers (issue 38) are handed what they use by src/serve.ts; ids are checked through the use cases. */
  alerts: ['cli', 'slack', 'mcp', ...BELOW_THE_USE_CASES, ...ROOTS],
  'config.ts': [...innerNever('config.ts', 'calc'), 'engine', 'walkthrough'],
};

/** Packages a layer must not use: the engine and the walkthroughs know no Slack, no model SDK. */
const FORBIDDEN_PACKAGES: Readonly<Record<string, readonly string[]>> = {
  engine: [...SURFACE_PACKAGES, 'ioredis', 'pino'],
  walkthrough: SURFACE_PACKAGES,
  diagnosis: SURFACE_PACKAGES,
  usecases: [...SURFACE_PACKAGES, 'ioredis'],
  calc: SURFACE_PACKAGES,
  redis: SURFACE_PACKAGES,
  dedupe: SURFACE_PACKAGES,
  cases: SURFACE_PACKAGES,
  incidents: SURFACE_PACKAGES,
  cli: MCP_PACKAGES,
  slack: MCP_PACKAGES,
  mcp: [...SLACK_PACKAGES, 'openai'],
  alerts: [...SURFACE_PACKAGES, 'ioredis'],
};

describe('import rules', () => {
  it('reads the imports of every source file, dynamic ones too', () => {
    expect(IMPORTS.length).toBeGreaterThan(300);
    expect(IMPORTS).toContainEqual({ from: 'cli/main.ts', to: 'cli/registry.ts', typeOnly: false });
    expect(IMPORTS).toContainEqual({ from: 'main.ts', to: 'serve.ts', typeOnly: false, dynamic: true });
    expect(IMPORTS).toContainEqual({ from: 'slack/deps.ts', to: 'llm/assist.ts', typeOnly: true });
    expect(IMPORTS).toContainEqual({
      from: 'mcp/tools/diagnose.ts',
      to: 'mcp/tools/diagnose-run.ts',
      typeOnly: false,
      dynamic: true,
    });
  });

  it.each(Object.entries(FORBIDDEN))('%s imports none of its forbidden layers', (name, forbidden) => {
    expect(forbiddenImports(IMPORTS, name, forbidden)).toEqual([]);
  });

  it.each(Object.entries(FORBIDDEN_PACKAGES))('%s uses none of its forbidden packages', (name, forbidden) => {
    expect(forbiddenPackages(IMPORTS, name, forbidden)).toEqual([]);
  });

  it.each([
    ['cli', 'slack'],
    ['slack', 'cli'],
    ['mcp', 'cli'],
    ['cli', 'mcp'],
    ['mcp', 'slack'],
    ['slack', 'mcp'],
    ['alerts', 'slack'],
    ['alerts', 'cli'],
    ['alerts', 'mcp'],
    ['slack', 'alerts'],
    ['cli', 'alerts'],
    ['mcp', 'alerts'],
  ])('no %s file reaches %s through any chain of imports, a root in between included', (from, to) => {
    expect(reachPaths(IMPORTS, from, to)).toEqual([]);
  });

  it('only src/config.ts reads the environment', () => {
    const readers = sourceFiles(SRC)
      .filter((file) =>
        /\bprocess\.env\b/.test(readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')),
      )
      .map((file) => relative(SRC, file));
    expect(readers).toEqual(['config.ts']);
  });

  it('has no import cycles, type-only and dynamic imports included', () => {
    expect(importCycles(IMPORTS)).toEqual([]);
  });
});
