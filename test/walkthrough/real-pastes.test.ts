import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { PARSERS } from '../../src/engine/parsers/registry.ts';
import { PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { checkProcedure } from '../../src/walkthrough/lint.ts';
import type { Procedure } from '../../src/walkthrough/procedure-schema.ts';
import { viewOf } from '../../src/walkthrough/view.ts';
import { type ScriptedAnswer, walkProcedure } from '../../src/walkthrough/walk.ts';

/**
 * Every paste step of every procedure, walked with real command output (real-pastes.yaml): the real
 * parser reads the fixture and the walk must end at the conclusion that output calls for.
 */
const FIXTURES = join(import.meta.dirname, '..', 'engine', 'parsers', 'fixtures');
/** Inputs written by hand, not captured: they may test a parser, never stand in for real output here. */
const NOT_CAPTURED = /^(synthetic|truncated|malformed)-/;

const Answer = z.union([
  z.string(),
  z.number(),
  z.strictObject({ fixture: z.string() }),
  z.strictObject({ culprit: z.string() }),
]);
const Walk = z.strictObject({ expect: z.string(), answers: z.record(z.string(), Answer) });
const Table = z.record(z.string(), z.array(Walk));
const TABLE = Table.parse(parseYaml(readFileSync(join(import.meta.dirname, 'real-pastes.yaml'), 'utf8')));

const WITH_PROCEDURE = readdirSync(PLAYBOOKS_DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(PLAYBOOKS_DIR, e.name, 'procedure.yaml')))
  .map((e) => e.name)
  .sort();

function loadProcedure(id: string): Procedure {
  const raw = parseYaml(readFileSync(join(PLAYBOOKS_DIR, id, 'procedure.yaml'), 'utf8'));
  const check = checkProcedure(raw, new Set(Object.keys(PARSERS)));
  if (!check.ok) throw new Error(`${id}/procedure.yaml:\n${check.message}`);
  return check.procedure;
}

function scripted(answer: z.infer<typeof Answer>): ScriptedAnswer {
  if (typeof answer !== 'object') return answer;
  if ('fixture' in answer) return readFileSync(join(FIXTURES, answer.fixture), 'utf8');
  return answer;
}

function pasteSteps(procedure: Procedure): string[] {
  return procedure.steps.filter((s) => s.kind === 'paste').map((s) => s.id);
}

describe.each(WITH_PROCEDURE)('real pastes through the procedure of %s', (id) => {
  const procedure = loadProcedure(id);
  const walks = TABLE[id] ?? [];

  it('answers every paste step with a captured or published output somewhere', () => {
    const answered = new Set(
      walks.flatMap((w) =>
        Object.entries(w.answers)
          .filter(([, a]) => typeof a === 'object' && 'fixture' in a)
          .map(([step]) => step),
      ),
    );
    expect(pasteSteps(procedure).filter((step) => !answered.has(step))).toEqual([]);
  });

  it.each(walks.map((w, i) => ({ ...w, name: `${i + 1}: ${w.expect}` })))('walk $name', (w) => {
    const pastes = new Set(pasteSteps(procedure));
    for (const [step, answer] of Object.entries(w.answers)) {
      if (!pastes.has(step)) continue;
      // A paste step here takes a real output, never values or a hand-written list.
      expect(typeof answer === 'object' && 'fixture' in answer, `${step} needs a fixture`).toBe(true);
      if (typeof answer === 'object' && 'fixture' in answer)
        expect(answer.fixture.split('/').pop() ?? '').not.toMatch(NOT_CAPTURED);
    }
    const answers = Object.fromEntries(Object.entries(w.answers).map(([step, a]) => [step, scripted(a)]));
    const result = walkProcedure(procedure, answers, { facts: [], values: {} });
    expect(result.conclusion).toBe(w.expect);
    const asked = result.record.path.filter((e) => !e.prefilled).map((e) => e.step);
    expect(asked.sort()).toEqual(Object.keys(w.answers).sort());
    const view = viewOf(result.record);
    const shown = [view?.title, view?.text, ...(view?.fix ?? []), ...(view?.verify ?? [])].join('\n');
    expect(shown).not.toMatch(/unknown>|\{\{/);
  });
});
