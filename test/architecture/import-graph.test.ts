import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  forbiddenImports,
  forbiddenPackages,
  importCycles,
  reachPaths,
  readImports,
} from './import-graph.ts';

/**
 * A small source tree with one planted violation of each rule imports.test.ts checks, so each
 * check is seen to fail: the checks run on it exactly as on src/.
 */
const PLANTED: Readonly<Record<string, string>> = {
  // engine, setup and redis -> a surface
  'engine/reads-slack.ts': "import { view } from '../slack/view.ts';\n",
  'setup/reads-cli.ts': "import type { Io } from '../cli/io.ts';\n",
  'redis/reads-slack.ts': "export { view } from '../slack/view.ts';\n",
  // a surface -> engine (type-only), setup (dynamic), redis (across lines)
  'slack/view.ts': "import type { Fact } from '../engine/fact.ts';\nexport const view = 1;\n",
  'cli/io.ts':
    "export type Io = 1;\nexport async function load() {\n  return import('../setup/pool.ts');\n}\n",
  'cli/store.ts': "import {\n  connect,\n  type Conn,\n} from '../redis/connect.ts';\n",
  // a type-only cycle, like engine/blocks.ts -> collector.ts -> diagnose.ts once was
  'engine/a.ts': "import type { B } from './b.ts';\nexport type A = B;\n",
  'engine/b.ts': "import type { C } from './c.ts';\nexport type B = C;\n",
  'engine/c.ts': "import type { A } from './a.ts';\nexport type C = A;\n",
  // the CLI reaching Slack through a root's dynamic import, as serve once did
  'cli/serve-command.ts': "export const load = () => import('../root.ts');\n",
  'root.ts': "export const start = () => import('./slack/start.ts');\n",
  'slack/start.ts': 'export {};\n',
  // a package a layer must not use
  'engine/logs.ts': "import pino from 'pino';\n",
  'engine/fact.ts': 'export type Fact = 1;\n',
  'setup/pool.ts': 'export {};\n',
  'redis/connect.ts': 'export {};\n',
};

const root = mkdtempSync(join(tmpdir(), 'memdoctor-imports-'));
for (const [path, text] of Object.entries(PLANTED)) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}
const imports = readImports(root);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the import checks find each planted violation', () => {
  it.each([
    ['engine', 'engine/reads-slack.ts -> slack/view.ts'],
    ['setup', 'setup/reads-cli.ts -> cli/io.ts'],
    ['redis', 'redis/reads-slack.ts -> slack/view.ts'],
  ])('%s -> a surface', (name, expected) => {
    expect(forbiddenImports(imports, name, ['slack', 'cli'])).toEqual([expected]);
  });

  it('a surface -> engine, setup or redis: type-only, dynamic and multi-line imports alike', () => {
    const below = ['engine', 'setup', 'redis'];
    expect(forbiddenImports(imports, 'slack', below)).toEqual(['slack/view.ts -> engine/fact.ts']);
    expect(forbiddenImports(imports, 'cli', below).sort()).toEqual([
      'cli/io.ts -> setup/pool.ts',
      'cli/store.ts -> redis/connect.ts',
    ]);
  });

  it('a type-only cycle', () => {
    expect(importCycles(imports)).toEqual(['engine/a.ts -> engine/b.ts -> engine/c.ts -> engine/a.ts']);
  });

  it('the CLI reaching Slack through a root, by dynamic imports', () => {
    expect(reachPaths(imports, 'cli', 'slack')).toEqual([
      'cli/serve-command.ts -> root.ts -> slack/start.ts',
    ]);
    expect(reachPaths(imports, 'slack', 'cli')).toEqual([]);
  });

  it('a forbidden package', () => {
    expect(forbiddenPackages(imports, 'engine', ['pino'])).toEqual(['engine/logs.ts -> pino']);
  });
});
