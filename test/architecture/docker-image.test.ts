import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

interface Copy {
  from: string[];
  to: string;
  /** `--from=build`: the sources are paths in the build stage's /app, which is the repository built. */
  fromBuild: boolean;
}

/** The runtime stage of the Dockerfile: its COPY lines, its WORKDIR and its CMD. */
function runtimeStage(): { copies: Copy[]; cmd: string[] } {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const stage = text.slice(text.search(/^FROM \S+ AS runtime$/m));
  const copies = [...stage.matchAll(/^COPY\s+(.+)$/gm)].map((m) => {
    const words = (m[1] ?? '').split(/\s+/);
    const flags = words.filter((w) => w.startsWith('--'));
    const paths = words.filter((w) => !w.startsWith('--'));
    const to = paths.pop() ?? '';
    return { from: paths, to, fromBuild: flags.includes('--from=build') };
  });
  const cmd = JSON.parse(/^CMD\s+(\[.*\])$/m.exec(stage)?.[1] ?? '[]') as string[];
  return { copies, cmd };
}

/**
 * The image's /app, assembled from the runtime stage's COPY lines (no Docker daemon here): a source
 * that does not exist fails the test, and so does a file the command needs that no line copies.
 * node_modules is linked, not pruned: what `npm prune --omit=dev` leaves is not checked here.
 */
function assembleApp(): string {
  const app = mkdtempSync(join(tmpdir(), 'memdoctor-image-'));
  for (const { from, to, fromBuild } of runtimeStage().copies) {
    for (const source of from) {
      const path = join(ROOT, fromBuild ? source.replace(/^\/app\//, '') : source);
      if (!existsSync(path)) throw new Error(`the Dockerfile copies ${source}, which does not exist`);
      const target = to.endsWith('/') ? join(app, to, source.split('/').pop() ?? '') : join(app, to);
      if (source.endsWith('node_modules')) symlinkSync(path, target);
      else cpSync(path, target, { recursive: true });
    }
  }
  return app;
}

/** The build context's COPY sources: every COPY of every stage that is not `--from` another stage. */
function contextCopies(): string[] {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  return [...text.matchAll(/^COPY\s+(.+)$/gm)].flatMap((m) => {
    const words = (m[1] ?? '').split(/\s+/);
    if (words.some((w) => w.startsWith('--from='))) return [];
    return words.filter((w) => !w.startsWith('--')).slice(0, -1);
  });
}

/** A .dockerignore pattern as a regex: `*` and `?` stay within one path segment, `**` spans them. */
function patternRegex(pattern: string): RegExp {
  const body = pattern
    .replace(/^\/+|\/+$/g, '')
    .split(/(\*\*|\*|\?)/)
    .map((part) =>
      part === '**'
        ? '.*'
        : part === '*'
          ? '[^/]*'
          : part === '?'
            ? '[^/]'
            : part.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${body}$`);
}

/**
 * Whether Docker leaves a context path out: the last .dockerignore pattern that matches the path or
 * one of its parent folders decides (`!` patterns put it back), as Docker's own matcher does.
 */
function ignoredByDocker(path: string, lines: readonly string[]): boolean {
  const parents = path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
  let ignored = false;
  for (const line of lines) {
    const negated = line.startsWith('!');
    const regex = patternRegex(negated ? line.slice(1) : line);
    if (parents.some((p) => regex.test(p))) ignored = !negated;
  }
  return ignored;
}

function dockerignore(): string[] {
  return readFileSync(join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

describe('the build context (.dockerignore)', () => {
  it('keeps every file the Dockerfile copies from it', () => {
    const lines = dockerignore();
    const sources = contextCopies();
    expect(sources).toEqual(expect.arrayContaining(['package.json', 'scripts', 'src', 'playbooks', 'bin']));
    const files = execFileSync('git', ['ls-files', '--', ...sources], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    expect(files.length).toBeGreaterThan(sources.length);
    expect(files.filter((file) => ignoredByDocker(file, lines))).toEqual([]);
  });

  it('reads .dockerignore as Docker does (a planted `scripts` line is caught)', () => {
    expect(ignoredByDocker('scripts/build.mjs', [...dockerignore(), 'scripts'])).toBe(true);
    expect(ignoredByDocker('scripts/build.mjs', ['scripts', '!scripts/build.mjs'])).toBe(false);
    expect(ignoredByDocker('playbooks/a/fixtures/x.log', ['*.log'])).toBe(false);
    expect(ignoredByDocker('x.log', ['*.log'])).toBe(true);
    expect(ignoredByDocker('a/b/x.log', ['**/*.log'])).toBe(true);
  });

  it('takes its base image as a build argument, for both stages', () => {
    const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(text).toMatch(/^ARG BASE=node:22[\w.-]*$/m);
    expect([...text.matchAll(/^FROM (\S+)/gm)].map((m) => m[1])).toEqual([`\${BASE}`, `\${BASE}`]);
  });
});

let app: string;
beforeAll(() => {
  app = assembleApp();
});
afterAll(() => rmSync(app, { recursive: true, force: true }));

async function inImage(args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const { cmd } = runtimeStage();
  const [node, ...rest] = args.length > 0 ? ['node', 'bin/memdoctor.mjs', ...args] : cmd;
  expect(node).toBe('node');
  // The image's environment: no Slack credentials, nothing from this machine's.
  const env = { PATH: process.env.PATH ?? '', NODE_ENV: 'production', PORT: '3000' };
  try {
    const { stdout, stderr } = await run(process.execPath, rest, { cwd: app, env });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout, err: failed.stderr };
  }
}

describe('the Docker image, assembled from its Dockerfile', () => {
  it('runs `memdoctor serve`, which without Slack credentials stops with exit 2 and says what to set', async () => {
    const { cmd } = runtimeStage();
    expect(cmd).toEqual(['node', 'bin/memdoctor.mjs', 'serve']);
    const { code, err } = await inImage([]);
    expect(code).toBe(2);
    expect(err).toContain('SLACK_BOT_TOKEN');
  });

  it('has what the built command reads at run time: a diagnosis from its own playbooks', async () => {
    const fixture = join(ROOT, 'playbooks/spark-heap-oom/fixtures/broadcast.log');
    const { code, out } = await inImage(['diagnose', '--json', fixture]);
    expect(code).toBe(0);
    expect(JSON.parse(out).diagnoses[0].playbook).toBe('spark-heap-oom');
    for (const worker of ['engine-worker.js', 'block-worker.js', 'heap-worker.js'])
      expect(existsSync(join(app, 'dist', worker)), worker).toBe(true);
    for (const asset of ['src/redis/lua', 'src/llm/prompts', 'playbooks', 'manifest.yaml'])
      expect(existsSync(join(app, asset)), asset).toBe(true);
  });
});
