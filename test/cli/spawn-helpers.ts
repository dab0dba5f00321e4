import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PATIENCE_MS } from '../support/patience.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const TEST_PLAYBOOKS = fileURLToPath(new URL('../fixtures/playbooks', import.meta.url));

/** The newest modification time of any file under `dir`. */
function newestUnder(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const path = join(dir, entry.name);
    return Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }, 0);
}

let builtChecked = false;

/**
 * The built files (dist/, as `npm start` and the installed command run them; `npm test` builds them
 * first), for the tests that start memdoctor as a process: starting from dist/ takes a third of the
 * CPU that tsx takes to compile src/ (0.3 s against 0.9 s), which on a loaded machine is most of a
 * process test's time. Throws, saying to build, when dist/ is older than src/ or playbooks/, so a
 * test never passes on a stale build.
 */
export function assertBuilt(): void {
  if (builtChecked) return;
  const cli = join(ROOT, 'dist', 'cli.js');
  const builtAt = existsSync(cli) ? statSync(cli).mtimeMs : 0;
  const changed = Math.max(newestUnder(join(ROOT, 'src')), newestUnder(join(ROOT, 'playbooks')));
  if (changed > builtAt) throw new Error('dist/ is missing or older than src/: run `npm run build` first');
  builtChecked = true;
}

/** A clean environment: no Slack or OpenAI settings leak in from the developer's shell. */
export function testEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LOG_LEVEL: 'silent',
    MEMDOCTOR_PLAYBOOKS_DIR: TEST_PLAYBOOKS,
    ...extra,
  };
}

/** A spawned memdoctor process driven like a person at a terminal: wait for text, then type. */
export class Driven {
  stdout = '';
  stderr = '';
  private seen = 0;
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8');
    });
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  /** Waits until output after the last match matches `pattern`; returns the match. */
  async waitFor(pattern: RegExp, timeoutMs = PATIENCE_MS): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(this.stdout.slice(this.seen));
      if (match) {
        this.seen += match.index + match[0].length;
        return match;
      }
      if (Date.now() > deadline || this.child.exitCode !== null)
        throw new Error(`never saw ${pattern}; stdout:\n${this.stdout}\nstderr:\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  type(...lines: string[]): void {
    this.child.stdin?.write(`${lines.join('\n')}\n`);
  }

  end(): Promise<number | null> {
    this.child.stdin?.end();
    return this.exited;
  }
}

/** `memdoctor <args>` as a separate process: the installed command (bin/memdoctor.mjs). */
export function memdoctor(args: string[], env: NodeJS.ProcessEnv): Driven {
  assertBuilt();
  const child = spawn(process.execPath, ['bin/memdoctor.mjs', ...args], { cwd: ROOT, env, stdio: 'pipe' });
  return new Driven(child);
}

/** `npm start` as a separate process. */
export function npmStart(env: NodeJS.ProcessEnv): Driven {
  assertBuilt();
  return new Driven(spawn('npm', ['start', '--silent'], { cwd: ROOT, env, stdio: 'pipe' }));
}
