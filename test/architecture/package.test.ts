import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema, loadConfig } from '../../src/config.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REFUSE_DEV = join(ROOT, 'test/architecture/fixtures/refuse-dev-dependencies.mjs');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  files: string[];
  license: string;
  engines: { node: string };
};

/** Runs node on the built files with every devDependency refused (see the fixture). */
function runWithoutDevDependencies(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, ['--import', REFUSE_DEV, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...env },
    timeout: 60_000,
  });
}

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/cli.js')))
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT });
});

describe('the package', () => {
  it('keeps tsx and esbuild for development only', () => {
    expect(Object.keys(manifest.dependencies)).not.toContain('tsx');
    expect(Object.keys(manifest.dependencies)).not.toContain('esbuild');
    expect(Object.keys(manifest.devDependencies)).toContain('tsx');
  });

  it('runs the installed command and npm start without any devDependency', () => {
    const refused = runWithoutDevDependencies(['-e', "import('tsx')"]);
    expect(refused.stderr).toContain('devDependency imported at run time: tsx');
    const fixture = join(ROOT, 'playbooks/jvm-oom/fixtures');
    const log = `${fixture}/${readFileSync(join(fixture, 'cases.yaml'), 'utf8').match(/file: (\S+)/)?.[1]}`;
    const diagnose = runWithoutDevDependencies(['bin/memdoctor.mjs', 'diagnose', '--json', log]);
    expect(diagnose.stderr).toBe('');
    expect(JSON.parse(diagnose.stdout).diagnoses.length).toBeGreaterThan(0);
    // `npm start` is `node dist/main.js`: without Slack settings it opens the console; stdin is empty.
    const start = runWithoutDevDependencies(['dist/main.js']);
    expect(start.stderr).not.toContain('devDependency imported');
    expect(start.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find/);
    expect(start.status).toBe(0);
  });

  it('publishes no source maps, and the LICENSE and .env.example', () => {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: ROOT,
        encoding: 'utf8',
      }),
    ) as { files: { path: string }[] }[];
    const paths = packed[0]?.files.map((f) => f.path) ?? [];
    expect(paths).toContain('dist/cli.js');
    expect(paths.filter((p) => p.endsWith('.map'))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(['LICENSE', '.env.example']));
  });

  it('supports Node 22 LTS and later, as the image ships (Node 20 left support on 2026-04-30)', () => {
    expect(manifest.engines.node).toBe('>=22');
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
    expect(lock.packages[''].engines).toEqual(manifest.engines);
    expect(lock.packages[''].devDependencies).toEqual(manifest.devDependencies);
    expect(lock.packages[''].dependencies).toEqual(manifest.dependencies);
  });

  it('has the Apache-2.0 text its license field names', () => {
    expect(manifest.license).toBe('Apache-2.0');
    const text = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    expect(text).toContain('Apache License\n                           Version 2.0, January 2004');
    expect(text).toContain('END OF TERMS AND CONDITIONS');
    expect(text.split('\n').length).toBeGreaterThan(200);
  });
});

/** NAME=value lines of .env.example, commented (`#NAME=value`: left at its default) or not. */
function exampleSettings(): Map<string, string> {
  const text = readFileSync(join(ROOT, '.env.example'), 'utf8');
  const settings = new Map<string, string>();
  for (const match of text.matchAll(/^#?([A-Z][A-Z0-9_]*)=(.*)$/gm))
    settings.set(match[1] ?? '', match[2] ?? '');
  return settings;
}

describe('.env.example', () => {
  it('names every setting the config schema reads, and nothing else', () => {
    expect([...exampleSettings().keys()].sort()).toEqual(Object.keys(ConfigSchema.shape).sort());
  });

  it('shows values the schema accepts', () => {
    const settings = Object.fromEntries(exampleSettings());
    // REDIS_URL and REDIS_CLUSTER_NODES are alternatives: each is checked on its own.
    const { REDIS_CLUSTER_NODES, ...oneServer } = settings;
    expect(() => loadConfig(oneServer)).not.toThrow();
    expect(() => loadConfig({ ...oneServer, REDIS_URL: '', REDIS_CLUSTER_NODES })).not.toThrow();
  });
});
