import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calcAnswer } from '../../src/calc/answer.ts';
import { CALC_SYSTEMS } from '../../src/calc/registry.ts';
import { UsageError } from '../../src/errors.ts';
import { TWO_SMALL_TASKMANAGERS } from './taskmanagers.ts';

const PENDING = readFileSync(
  new URL(
    '../engine/parsers/fixtures/flink-resource-profile/minimum-resources-acquired.txt',
    import.meta.url,
  ),
  'utf8',
);
const TASKMANAGERS = TWO_SMALL_TASKMANAGERS;

/** Files from memory: the calculators themselves read nothing. */
function files(contents: Record<string, string>) {
  const asked: string[] = [];
  const read = (path: string, flag: string) => {
    asked.push(`${flag}=${path}`);
    const text = contents[path];
    if (text === undefined) throw new UsageError(`no file ${path}`);
    return text;
  };
  return { read, asked };
}

describe('calcAnswer', () => {
  it('reads the files flags name through the surface, so the calculator stays pure', () => {
    const { read, asked } = files({ 'tms.json': TASKMANAGERS, 'jm.log': PENDING });
    const out = calcAnswer(['flink-slots', '--taskmanagers', 'tms.json', '--pending', 'jm.log'], read);
    expect(asked).toEqual(['taskmanagers=tms.json', 'pending=jm.log']);
    expect(out).toMatch(/3 pending request\(s\)/);
    expect(out).toMatch(/verdict: lacks-resources/);
  });

  it('names the file when its content is not what the flag wants', () => {
    const { read } = files({ 'tms.json': '{"taskmanagers": [' });
    expect(() =>
      calcAnswer(['flink-slots', '--taskmanagers', 'tms.json', '--request', 'cpuCores=1'], read),
    ).toThrow('--taskmanagers "tms.json" is not complete JSON.');
  });

  it('gives JSON with --json, text without, and help for `help`', () => {
    const none = files({}).read;
    const json = JSON.parse(calcAnswer(['spark', '--json', '--spark.executor.memory', '8g'], none));
    expect(json.budget.heap).toBe(8 * 1024 ** 3);
    expect(calcAnswer(['spark', '--spark.executor.memory', '8g'], none)).toMatch(/^Spark executor with/);
    expect(calcAnswer(['spark', 'help'], none)).toMatch(/^memdoctor calc spark \[--json\] \[flags\]/);
  });

  it.each(Object.values(CALC_SYSTEMS).map((s) => [s.name, s] as const))(
    '%s lists every flag in its help',
    (name, system) => {
      const help = calcAnswer([name, 'help'], files({}).read);
      for (const flag of Object.keys(system.flags)) expect(help).toContain(`--${flag}`);
    },
  );
});
