import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CALC_NAMES } from '../../src/calc/registry.ts';
import { COMMANDS } from '../../src/cli/registry.ts';
import { colorEnabled, terminalColors } from '../../src/cli/render/colors.ts';
import { renderReport } from '../../src/cli/render/diagnosis.ts';
import { cli } from './in-process.ts';

const OOM = 'java.lang.OutOfMemoryError: Java heap space\n';
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

describe('memdoctor as a command', () => {
  beforeEach(() => {
    vi.stubEnv('REDIS_URL', '');
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('MEMDOCTOR_PLAYBOOKS_DIR', '');
    vi.stubEnv('LOG_LEVEL', 'silent');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it.each([['--version'], ['-V'], ['version']])('%s prints the package version', async (flag) => {
    expect(await cli([flag])).toEqual({ code: 0, out: `memdoctor ${version}\n`, err: '' });
  });

  it.each(Object.keys(COMMANDS))('help %s and %s --help show the same usage', async (name) => {
    const viaHelp = await cli(['help', name]);
    const viaFlag = await cli([name, '--help']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.out).toContain(`Usage: ${COMMANDS[name]?.usage}`);
    expect(viaFlag).toEqual(viaHelp);
  });

  it('help of an unknown command exits 2 and lists the commands', async () => {
    const { code, err } = await cli(['help', 'dance']);
    expect(code).toBe(2);
    expect(err).toMatch(/no command "dance"[\s\S]*diagnose/);
  });

  it('an unknown option gets one line and the usage, not a parser error', async () => {
    const { code, out, err } = await cli(['diagnose', '--jsno', '-'], OOM);
    expect(code).toBe(2);
    expect(out).toBe('');
    const [first, second] = err.split('\n');
    expect(first).toBe('memdoctor: unknown option --jsno');
    expect(second).toBe(`Usage: ${COMMANDS.diagnose?.usage.split('\n')[0]}`);
    expect(err).not.toMatch(/ERR_PARSE_ARGS|To specify a positional/);
  });

  it('an option missing its value says so', async () => {
    const { code, err } = await cli(['diagnose', '--engine']);
    expect(code).toBe(2);
    expect(err.split('\n')[0]).toBe('memdoctor: option --engine needs a value');
  });

  it('resume of an unknown walkthrough exits non-zero', async () => {
    const { code, err } = await cli(['resume', 'local-console-000000']);
    expect(code).toBe(2);
    expect(err).toMatch(/no walkthrough "local-console-000000"/);
  });

  it('diagnose reads piped stdin when no file is given', async () => {
    const { code, out } = await cli(['diagnose'], OOM);
    expect(code).toBe(0);
    expect(out).toMatch(/^== - \(1 lines\)\nA JVM ran out of memory {2}\[jvm-oom/);
  });

  it('--fail-when-none exits 1 when nothing was recognised, 0 when something was', async () => {
    expect((await cli(['diagnose', '--fail-when-none'], 'all quiet\n')).code).toBe(1);
    expect((await cli(['diagnose', '--fail-when-none'], OOM)).code).toBe(0);
    // Without the opt-in, recognising nothing is still a successful run.
    expect((await cli(['diagnose'], 'all quiet\n')).code).toBe(0);
  });

  it('calc usage names every calculator', () => {
    expect(COMMANDS.calc?.usage).toContain(`memdoctor calc ${CALC_NAMES} `);
  });
});

describe('colour', () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };

  it.each([
    ['a TTY', tty, {}, true],
    ['a pipe', pipe, {}, false],
    ['a TTY with NO_COLOR', tty, { NO_COLOR: '1' }, false],
    ['a TTY with an empty NO_COLOR', tty, { NO_COLOR: '' }, true],
    ['a dumb TTY', tty, { TERM: 'dumb' }, false],
    ['a pipe with FORCE_COLOR', pipe, { FORCE_COLOR: '1' }, true],
    ['FORCE_COLOR over NO_COLOR', pipe, { FORCE_COLOR: '1', NO_COLOR: '1' }, true],
    ['a TTY with FORCE_COLOR=0', tty, { FORCE_COLOR: '0' }, false],
  ])('on %s: %s', (_what, stdout, env, expected) => {
    expect(colorEnabled(stdout, env)).toBe(expected);
  });

  it('coloured output differs from plain only by escape codes', () => {
    const report = {
      source: 'x.log',
      input: { lines: 1 },
      diagnoses: [
        { title: 'A JVM ran out of memory', playbook: 'jvm-oom', confidence: 0.7, evidence: [], actions: [] },
      ],
    } as unknown as Parameters<typeof renderReport>[0];
    const plain = renderReport(report, ['jvm-oom']);
    const coloured = renderReport(report, ['jvm-oom'], terminalColors(tty, { FORCE_COLOR: '1' }));
    expect(coloured).not.toBe(plain);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the ANSI escape is what is removed
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(plain);
  });
});
