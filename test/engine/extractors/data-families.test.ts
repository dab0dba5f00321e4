import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DATA_FAMILIES, dataFindings, dataRulesOf } from '../../../src/engine/extractors/data-families.ts';
import { compiledFamiliesJson, compileFamilies } from '../../../src/engine/extractors/families/compile.ts';
import { EXTRACTORS } from '../../../src/engine/extractors/registry.ts';
import { FactBook } from '../../../src/engine/facts.ts';
import { normalise } from '../../../src/engine/ingest/normalise.ts';
import { excludedBy, factsFor } from '../../../src/engine/match.ts';
import { literalRuns } from './regex-literals.ts';
import { kindsOf } from './run-extractor.ts';

const DIR = fileURLToPath(new URL('../../../src/engine/extractors/families/', import.meta.url));
const sources = readdirSync(DIR)
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => ({ name, text: readFileSync(DIR + name, 'utf8') }));

const dataFamilies = Object.entries(DATA_FAMILIES).flatMap(([id, families]) =>
  families.map((family) => ({ id, family })),
);
const examples = dataFamilies.flatMap(({ id, family }) =>
  family.examples.map((line) => ({ id, name: family.name, kind: family.kind, line })),
);

/** Every kind any extractor finds on a line, as the engine would run them all. */
function allKinds(line: string): Set<string> {
  return new Set(Object.values(EXTRACTORS).flatMap((extractor) => kindsOf(extractor, line)));
}

describe('message families kept as data', () => {
  it('compiled.json is what the build makes of the YAML files (run node scripts/build.mjs)', () => {
    expect(readFileSync(`${DIR}compiled.json`, 'utf8')).toBe(compiledFamiliesJson(sources));
  });

  it('every families file names an extractor the engine runs', () => {
    for (const id of Object.keys(DATA_FAMILIES)) expect(Object.keys(EXTRACTORS)).toContain(id);
  });

  // An example must give its own family's kind, and no pattern of a family of another kind may match
  // it: two data families claiming one line would make the judgement depend on which ran first. (A
  // line may still carry a second fact through the extractor's own code, as a NoResourceAvailable-
  // Exception's message carries the slot pool's status.)
  it.each(examples)('$id / $name: "$line"', ({ kind, line, name }) => {
    expect(allKinds(line)).toContain(kind);
    const normalised = normalise(line);
    for (const { family } of dataFamilies) {
      if (family.kind === kind || family.name === name) continue;
      for (const rule of family.patterns)
        expect(new RegExp(rule.pattern, rule.flags).test(normalised), `${family.name} claims ${line}`).toBe(
          false,
        );
    }
  });

  it.each(dataFamilies)(
    '$id / $family.name: every way of matching holds one of its triggers',
    ({ family }) => {
      for (const rule of family.patterns) {
        for (const way of literalRuns(new RegExp(rule.pattern, rule.flags))) {
          const held = rule.triggers.some((t) => way.some((run) => run.includes(t)));
          expect(held, `${rule.pattern} can match with only ${JSON.stringify(way)}`).toBe(true);
        }
      }
    },
  );
});

describe('compileFamilies refuses a family a person must fix, naming file and family', () => {
  const family = (patch: string) => ({
    name: 'flink.yaml',
    text: `extractor: flink-slots
families:
  - name: a family
    kind: flink.no-slots
    source: apache/flink some/File.java
    versions: Flink 1.x
    examples: ["Could not fulfill resource requirements of job 1."]
${patch}`,
  });

  it('a pattern no example matches', () => {
    expect(() =>
      compileFamilies([family('    patterns: [{pattern: "nothing like it", triggers: [nothing]}]')]),
    ).toThrowErrorMatchingInlineSnapshot(
      `[FamiliesInvalidError: flink.yaml: family "a family": no example matches pattern "nothing like it"]`,
    );
  });

  it('a pattern that is not a regex', () => {
    expect(() => compileFamilies([family('    patterns: [{pattern: "job (", triggers: [job]}]')])).toThrow(
      /flink\.yaml: family "a family": pattern "job \(" is not a regex/,
    );
  });

  it('a number read from a group the pattern lacks', () => {
    expect(() =>
      compileFamilies([family('    patterns: [{pattern: "job \\\\d", triggers: [job], numbers: [jobId]}]')]),
    ).toThrow('flink.yaml: family "a family": numbers names jobId, a group the pattern lacks');
  });

  it('an upper-case trigger, and a missing field', () => {
    expect(() => compileFamilies([family('    patterns: [{pattern: "job", triggers: [Job]}]')])).toThrow(
      /triggers are lower-case/,
    );
    expect(() =>
      compileFamilies([{ name: 'x.yaml', text: 'extractor: flink-slots\nfamilies: [{name: abc}]' }]),
    ).toThrow(/^x\.yaml: [\s\S]*kind/);
  });

  it('reads named groups as values, as numbers where it says so', () => {
    const compiled = compileFamilies([
      family(
        '    patterns: [{pattern: "job (?<job>\\\\d+)", triggers: [job], numbers: [job], values: {variant: x}}]',
      ),
    ]);
    const rules = (compiled['flink-slots'] ?? []).flatMap((f) =>
      f.patterns.map((rule) => ({ ...rule, kind: f.kind, re: new RegExp(rule.pattern, rule.flags) })),
    );
    expect(dataFindings(rules, 'Could not fulfill resource requirements of job 17.', [])).toEqual([
      { kind: 'flink.no-slots', values: { variant: 'x', job: 17 } },
    ]);
    // A kind the extractor's own code already found on the line is left to it.
    expect(dataFindings(rules, 'job 17', [{ kind: 'flink.no-slots' }])).toEqual([]);
  });
});

describe('the extractors carry their data families', () => {
  it('adds the data triggers, kinds per trigger, families and patterns', () => {
    const markers = EXTRACTORS['engine-markers'];
    expect(markers?.triggers).toContain('glue job is unhealthy');
    expect(markers?.triggerKinds?.['glue job is unhealthy']).toEqual(['glue.unhealthy-stop']);
    expect(markers?.families?.map((f) => f.kind)).toContain('runner.beam-job-server');
    const sources = markers?.patterns?.map((re) => re.source) ?? [];
    for (const rule of dataRulesOf('engine-markers')) expect(sources).toContain(rule.re.source);
  });

  it('reads the exit code as a number, with its meaning', () => {
    const [finding] =
      EXTRACTORS['exit-codes']?.extract('Container exited with a non-zero exit code 239.') ?? [];
    expect(finding?.kind).toBe('exit.239');
    expect(finding?.values?.code).toBe(239);
    expect(String(finding?.values?.meaning)).toMatch(/FatalExitExceptionHandler/);
  });
});

describe('a fact reference in its context (with, unless)', () => {
  const book = (...kinds: string[]) => {
    const facts = new FactBook();
    for (const [line, kind] of kinds.entries()) facts.add({ kind, line, text: kind });
    return facts;
  };
  const exclude = { fact: 'engine.flink', unless: ['runner.beam-job-server'] };
  const timeout = { fact: 'timeout.bare', with: ['flink.task-scheduled'] };

  it('unless: the fact counts when it is there alone, not beside one of its unless facts', () => {
    expect(excludedBy(book('engine.flink'), exclude)).toBe(true);
    expect(excludedBy(book('engine.spark'), exclude)).toBe(false);
    expect(excludedBy(book('engine.flink', 'runner.beam-job-server'), exclude)).toBe(false);
  });

  it('with: the fact counts only beside every one of its with facts', () => {
    expect(factsFor(book('timeout.bare'), timeout)).toEqual([]);
    expect(factsFor(book('flink.task-scheduled', 'timeout.bare'), timeout).map((f) => f.line)).toEqual([1]);
  });
});
