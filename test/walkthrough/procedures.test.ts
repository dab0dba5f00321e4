import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { parseText } from '../../src/engine/parsers/parse-text.ts';
import { PARSERS } from '../../src/engine/parsers/registry.ts';
import type { ParsedOutput } from '../../src/engine/parsers/types.ts';
import { fill } from '../../src/engine/templates.ts';
import { fileChunks } from '../../src/file-chunks.ts';
import { PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { heapDumpStepEvent } from '../../src/usecases/heap-dump-step.ts';
import type { WalkthroughEvent } from '../../src/walkthrough/index.ts';
import { knownValues } from '../../src/walkthrough/known.ts';
import { checkProcedure } from '../../src/walkthrough/lint.ts';
import type { Procedure } from '../../src/walkthrough/procedure-schema.ts';
import { viewOf } from '../../src/walkthrough/view.ts';
import { type ScriptedAnswer, walkProcedure } from '../../src/walkthrough/walk.ts';
import { edgesOf, unsurePlaceholders } from './procedure-graph.ts';

/** Every playbook folder: each must ship a procedure (CONTRIBUTING.md, "Adding a playbook"). */
const PLAYBOOK_FOLDERS = readdirSync(PLAYBOOKS_DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

/** Every playbook with a procedure; each needs a walk table in walks/<id>.yaml. */
const WITH_PROCEDURE = readdirSync(PLAYBOOKS_DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(PLAYBOOKS_DIR, e.name, 'procedure.yaml')))
  .map((e) => e.name)
  .sort();

it('has a procedure for every playbook folder', () => {
  expect(PLAYBOOK_FOLDERS.length).toBeGreaterThan(0);
  expect(WITH_PROCEDURE).toEqual(PLAYBOOK_FOLDERS);
});

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

/**
 * One walk: the facts and computed values the diagnosis had, and an answer per step a person answers.
 * A paste is either real command output (a fixture of the parsers' tests, read by the real parser) or
 * the values a parser would report; a bisection is answered by naming the real culprit.
 */
const WalkSchema = z.strictObject({
  expect: z.string(),
  facts: z
    .array(z.union([z.string(), z.strictObject({ kind: z.string(), values: z.record(z.string(), Scalar) })]))
    .default([]),
  values: z.record(z.string(), z.string()).default({}),
  /** Phrases the rendered conclusion must contain, e.g. a setting computed from the diagnosis values. */
  shows: z.array(z.string()).default([]),
  answers: z.record(
    z.string(),
    z.union([
      Scalar,
      z.strictObject({ values: z.record(z.string(), Scalar) }),
      z.strictObject({ fixture: z.string() }),
      z.strictObject({ culprit: z.string() }),
      /** A real heap dump of test/fixtures/heap-dumps, analysed as a surface would before answering. */
      z.strictObject({ dump: z.string() }),
    ]),
  ),
});
type Walk = z.infer<typeof WalkSchema>;

function readYaml(...parts: string[]): unknown {
  return parseYaml(readFileSync(join(...parts), 'utf8'));
}

function loadProcedure(id: string): Procedure {
  const check = checkProcedure(readYaml(PLAYBOOKS_DIR, id, 'procedure.yaml'), new Set(Object.keys(PARSERS)));
  if (!check.ok) throw new Error(`${id}/procedure.yaml:\n${check.message}`);
  return check.procedure;
}

const FAKE = '#values\n';
const PARSER_FIXTURES = join(import.meta.dirname, '..', 'engine', 'parsers', 'fixtures');

/**
 * Real parsers for real output; for a paste given as values, a stand-in that reports them (typed as
 * numbers and booleans) with the `parsed.<id>` fact every real parser adds.
 */
function parse(parserId: string, text: string): ParsedOutput {
  if (!text.startsWith(FAKE)) return parseText(parserId, text);
  const values: ParsedOutput['values'] = {};
  for (const line of text.slice(FAKE.length).split('\n')) {
    const [key, raw] = line.split('=');
    if (!key || raw === undefined) continue;
    values[key] =
      raw === 'true' || raw === 'false' ? raw === 'true' : Number.isFinite(Number(raw)) ? Number(raw) : raw;
  }
  const fact = { kind: `parsed.${parserId}`, values, line: 1, text: '' };
  return { format: parserId, facts: [fact], values, summary: `${parserId} output` };
}

const HEAP_DUMPS = join(import.meta.dirname, '..', 'fixtures', 'heap-dumps');

/** Every dump the walk tables name, analysed once up front (a walk itself is synchronous). */
const DUMP_EVENTS = new Map<string, WalkthroughEvent>();
for (const id of WITH_PROCEDURE) {
  const text = readFileSync(join(import.meta.dirname, 'walks', `${id}.yaml`), 'utf8');
  for (const [, name] of text.matchAll(/\{\s*dump:\s*([\w.-]+)\s*\}/g)) {
    if (!name || DUMP_EVENTS.has(name)) continue;
    const path = join(HEAP_DUMPS, name);
    const seekable = { locator: path, size: 0, read: (from: number) => fileChunks(path, from) };
    DUMP_EVENTS.set(name, await heapDumpStepEvent({ source: name, chunks: fileChunks(path), seekable }));
  }
}

function scripted(answer: Walk['answers'][string]): ScriptedAnswer {
  if (typeof answer === 'boolean') return String(answer);
  if (typeof answer !== 'object') return answer;
  if ('dump' in answer) {
    const event = DUMP_EVENTS.get(answer.dump);
    if (!event) throw new Error(`no heap dump ${answer.dump} in test/fixtures/heap-dumps`);
    return event;
  }
  if ('fixture' in answer) return readFileSync(join(PARSER_FIXTURES, answer.fixture), 'utf8');
  if ('values' in answer)
    return `${FAKE}${Object.entries(answer.values)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n')}`;
  return answer;
}

function run(procedure: Procedure, w: Walk) {
  const answers = Object.fromEntries(Object.entries(w.answers).map(([step, a]) => [step, scripted(a)]));
  const facts = w.facts.map((f) => (typeof f === 'string' ? { kind: f } : f));
  return walkProcedure(procedure, answers, { facts, values: w.values, parse });
}

/** Names a way out of a step: questions by answer, other steps by where they lead. */
function edgeKey(step: string, to: string, answer?: string): string {
  return answer === undefined ? `${step} -> ${to}` : `${step} -[${answer}]-> ${to}`;
}

/** Every string literal in the engine's source: the fact kinds extractors, parsers and derivations emit. */
function engineLiterals(dir = join(import.meta.dirname, '..', '..', 'src', 'engine')): Set<string> {
  const found = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) for (const s of engineLiterals(path)) found.add(s);
    else if (entry.name.endsWith('.ts'))
      for (const m of readFileSync(path, 'utf8').matchAll(/'([a-z][a-z0-9.-]*)'/g)) found.add(m[1] ?? '');
  }
  return found;
}
const EMITTED = engineLiterals();

/** The fact kinds a procedure's prefills wait for. */
function prefillKinds(procedure: Procedure): string[] {
  return procedure.steps.flatMap((s) => {
    if (s.kind !== 'question' && s.kind !== 'measurement') return [];
    return (s.prefill ?? []).flatMap((p) => {
      if (!('fact' in p)) return [];
      return [typeof p.fact === 'string' ? p.fact : p.fact.fact];
    });
  });
}

describe.each(WITH_PROCEDURE)('procedure of %s', (id) => {
  const procedure = loadProcedure(id);
  const walks = z.array(WalkSchema).parse(readYaml(import.meta.dirname, 'walks', `${id}.yaml`));

  it('prefills only from fact kinds that the engine or a parser emits', () => {
    // exit-codes.ts emits `exit.<code>` for every code it reads, so those kinds are never literals.
    const unknown = prefillKinds(procedure).filter((kind) =>
      kind.startsWith('parsed.')
        ? !(kind.slice('parsed.'.length) in PARSERS)
        : !EMITTED.has(kind) && !/^exit\.-?\d+$/.test(kind),
    );
    expect(unknown).toEqual([]);
  });

  it('fills a placeholder only where every path to it knows the value', () => {
    expect(unsurePlaceholders(procedure)).toEqual([]);
  });

  it.each(walks.map((w, i) => ({ ...w, name: `${i + 1}: ${w.expect}` })))('walk $name', (w) => {
    const result = run(procedure, w);
    expect(result.conclusion).toBe(w.expect);
    // Every answer in the table was asked for, so a typo in a step id cannot hide.
    const asked = result.record.path.filter((e) => !e.prefilled).map((e) => e.step);
    expect(asked.sort()).toEqual(Object.keys(w.answers).sort());
    // The conclusion as a person sees it has every value filled in.
    const view = viewOf(result.record);
    const shown = [view?.title, view?.text, ...(view?.fix ?? []), ...(view?.verify ?? [])].join('\n');
    expect(shown).not.toMatch(/unknown>|\{\{/);
    for (const phrase of w.shows) expect(shown).toContain(phrase);
  });

  it('has a walk that shows every computed fix line with its figures', () => {
    const computed = procedure.steps.flatMap((s) =>
      s.kind === 'conclusion'
        ? s.fix.flatMap((f) => (typeof f === 'string' ? [] : [{ step: s.id, text: f.text }]))
        : [],
    );
    const shownSomewhere = (c: { step: string; text: string }) =>
      walks.some((w) => {
        const record = run(procedure, w).record;
        return record.current === c.step && fill(c.text, knownValues(record)) !== undefined;
      });
    expect(computed.filter((c) => !shownSomewhere(c))).toEqual([]);
  });

  it('has walks that together take every way out of every step', () => {
    const taken = new Set(
      walks.flatMap((w) =>
        run(procedure, w).record.path.map((e) =>
          edgeKey(e.step, e.next, e.answer.kind === 'question' ? e.answer.answer : undefined),
        ),
      ),
    );
    const all = new Set(
      procedure.steps.flatMap((s) =>
        edgesOf(s).map((e) => edgeKey(e.from, e.to, s.kind === 'question' ? e.label : undefined)),
      ),
    );
    expect([...all].filter((e) => !taken.has(e))).toEqual([]);
  });

  it('has a walk that starts from diagnosis facts whenever a step can be prefilled', () => {
    const prefillable = procedure.steps.some((s) => 'prefill' in s && (s.prefill?.length ?? 0) > 0);
    const prefilledSomewhere = walks.some((w) => run(procedure, w).record.path.some((e) => e.prefilled));
    expect(prefilledSomewhere).toBe(prefillable);
  });
});
