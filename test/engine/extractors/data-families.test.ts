import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  DATA_FAMILIES,
  dataFindings,
  dataRulesOf,
  withDataFamilies,
} from '../../../src/engine/extractors/data-families.ts';
import { exitCodes } from '../../../src/engine/extractors/exit-codes.ts';
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

  // The build reads a directory, whose listing order the file system chooses; the engine's output
  // must not depend on it, nor on what the files are called.
  it('compiles the same JSON whatever order the files come in, extractors sorted by id', () => {
    const byName = [...sources].sort((a, b) => a.name.localeCompare(b.name));
    const expected = readFileSync(`${DIR}compiled.json`, 'utf8');
    expect(compiledFamiliesJson([...byName].reverse())).toBe(expected);
    // Names that sort the other way round from the extractor ids they hold.
    const renamed = byName.map((source, i) => ({
      ...source,
      name: `${String(byName.length - i).padStart(3, '0')}.yaml`,
    }));
    expect(Object.keys(compileFamilies(renamed))).toEqual(Object.keys(DATA_FAMILIES).sort());
    expect(compiledFamiliesJson(renamed)).toBe(expected);
  });

  it("takes one extractor's families in file-name order, whatever order the files come in", () => {
    const flinkSlots = sources.find((source) => source.name === 'flink-slots.yaml')?.text ?? '';
    // flink-slots.yaml cut in two after its first family: the header, then one chunk per family.
    const [header = '', first = '', ...rest] = flinkSlots.split(/^(?= {2}- name: )/m);
    expect(rest.length).toBeGreaterThan(0);
    const parts = [
      { name: 'flink-slots-2.yaml', text: header + rest.join('') },
      { name: 'flink-slots-1.yaml', text: header + first },
    ];
    expect(compileFamilies(parts)).toEqual({ 'flink-slots': DATA_FAMILIES['flink-slots'] });
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

describe('named groups of a data pattern', () => {
  // The two wordings flink-slots.yaml quotes: FineGrainedSlotManager's (the log in apache/flink pull
  // request 23064), and DeclarativeSlotManager's with its free slots (apache/flink pull request 16457).
  const FINE_GRAINED =
    '2023-07-24 15:32:05,621 WARN  org.apache.flink.runtime.resourcemanager.slotmanager.FineGrainedSlotManager [] - Could not fulfill resource requirements of job 525d55a98516a8918aa77bef5b8e4e64.';
  const DECLARATIVE =
    '2021-07-12 03:19:58,603 WARN Could not fulfill resource requirements of job 6cd8e69cfbb5ec959bac512dedce65f5. Free slots: 0 [DeclarativeSlotManager flink-akka.actor.default-dispatcher-2]';
  const compiled = compileFamilies([
    {
      name: 'flink.yaml',
      text: String.raw`extractor: flink-slots
families:
  - name: requirements unfulfilled
    kind: flink.no-slots
    source: apache/flink FineGrainedSlotManager.java, DeclarativeSlotManager.java
    versions: Flink 1.14+
    examples: ['${FINE_GRAINED}', '${DECLARATIVE}']
    patterns:
      - pattern: 'Could not fulfill resource requirements of job (?<jobId>[0-9a-f]{32})\.(?: Free slots: (?<freeSlots>\d{1,6}))?'
        triggers: [could not fulfill resource requirements]
        numbers: [freeSlots]
`,
    },
  ]);
  const rules = (compiled['flink-slots'] ?? []).flatMap((f) =>
    f.patterns.map((rule) => ({ ...rule, kind: f.kind, re: new RegExp(rule.pattern, rule.flags) })),
  );

  it('keeps a group numbers does not name as its text', () => {
    expect(dataFindings(rules, DECLARATIVE, [])).toStrictEqual([
      { kind: 'flink.no-slots', values: { jobId: '6cd8e69cfbb5ec959bac512dedce65f5', freeSlots: 0 } },
    ]);
  });

  it('gives no value for an optional group the line does not hold', () => {
    expect(dataFindings(rules, FINE_GRAINED, [])).toStrictEqual([
      { kind: 'flink.no-slots', values: { jobId: '525d55a98516a8918aa77bef5b8e4e64' } },
    ]);
  });
});

describe('the extractors carry their data families', () => {
  it('an extractor without a families file gets no data rules', () => {
    const plain = Object.keys(EXTRACTORS).filter((id) => DATA_FAMILIES[id] === undefined);
    expect(plain).toContain('jvm-oom');
    for (const id of plain) expect(dataRulesOf(id)).toEqual([]);
  });

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

// exit-codes reads 137, 143, -103, -104 and 52 in its own code on lines holding 'exit'; its data
// families (exit.239, exit.3) use the same trigger. The engine drops a trigger from its scan once
// every kind it can give (triggerKinds, else kinds) is kept in full, so the merge must not narrow
// what 'exit' can give to the data kinds, nor leave them out of kinds.
describe('withDataFamilies on an extractor that declares its kinds', () => {
  const OWN_KINDS = ['exit.137', 'exit.143', 'exit.-103', 'exit.-104', 'exit.52'];
  const merged = withDataFamilies({ ...exitCodes, triggerKinds: {}, kinds: OWN_KINDS });
  // Flink's forced exit, exit-codes.yaml's example (apache/hadoop ContainerLaunch diagnostics).
  const FLINK_FORCED_EXIT = 'Container exited with a non-zero exit code 239. Error file: prelaunch.err.';

  it("leaves a trigger its own code reads open: 'exit' still gives every kind", () => {
    expect(merged.triggers).toEqual(['exit']);
    expect(merged.triggerKinds).toEqual({});
  });

  it('adds the data kinds to the kinds it declares', () => {
    expect(merged.kinds).toEqual([...OWN_KINDS, 'exit.239', 'exit.3']);
    expect(merged.extract(FLINK_FORCED_EXIT).map((finding) => finding.kind)).toEqual(['exit.239']);
  });

  it('gives an extractor that lists no families or patterns those of its data families', () => {
    const bare = withDataFamilies({
      id: exitCodes.id,
      description: exitCodes.description,
      triggers: exitCodes.triggers,
      extract: exitCodes.extract,
    });
    expect(bare.families).toEqual(DATA_FAMILIES['exit-codes']);
    expect(bare.patterns).toEqual(dataRulesOf('exit-codes').map((rule) => rule.re));
    expect(bare.extract(FLINK_FORCED_EXIT).map((finding) => finding.kind)).toEqual(['exit.239']);
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
