import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { walkthroughStart } from '../../src/diagnosis/index.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../src/playbooks/load.ts';
import { diagnosePaste } from '../../src/slack/diagnose.ts';
import { diagnosisView } from '../../src/slack/views/diagnosis.ts';
import { stepMessage } from '../../src/slack/views/step.ts';
import { packWalkSeed, readWalkSeed } from '../../src/slack/views/walk-seed.ts';
import { createRecord, ProcedureSchema, viewOf } from '../../src/walkthrough/index.ts';
import { blockKitProblems } from './support/block-kit.ts';

const playbooks = loadPlaybooks(PLAYBOOKS_DIR);

/** Every fixture log shipped with the playbooks: real pastes, as people would send them. */
const fixtures = playbooks.flatMap((p) => {
  const dir = join(p.dir, 'fixtures');
  return readdirSync(dir)
    .filter((f) => !f.endsWith('.yaml'))
    .map((f) => [`${p.id}/${f}`, join(dir, f)] as const);
});

const settings = { botToken: 'xoxb-x', maxUploadBytes: 1 << 30, maxExpandedBytes: 1 << 30, fileHosts: [] };

describe('diagnoses of the shipped fixtures, as Slack messages', () => {
  it('has fixtures to check', () => {
    expect(fixtures.length).toBeGreaterThan(10);
  });

  it.each(fixtures)(
    '%s stays within Block Kit limits, and its walkthrough seed fits a button',
    async (_name, file) => {
      const result = await diagnosePaste({ settings, playbooks }, readFileSync(file, 'utf8'));
      const { report } = result;
      const known = report.diagnoses.length > 0 ? walkthroughStart(result) : undefined;
      const view = diagnosisView(report, playbooks, 'U1', known);
      expect(blockKitProblems(view.blocks)).toEqual([]);
      expect(view.text.length).toBeLessThanOrEqual(3000);
      const top = report.diagnoses[0];
      if (!top || !known) return;
      // What a Start button would carry: within Slack's 2000 characters, and readable back.
      const value = packWalkSeed(top.playbook, known);
      expect(value.length).toBeLessThanOrEqual(2000);
      expect(readWalkSeed(value)?.p).toBe(top.playbook);
    },
  );
});

describe('every step of every shipped procedure, as a Slack message', () => {
  const steps = playbooks.flatMap((p) => {
    if (p.procedure === undefined) return [];
    const procedure = ProcedureSchema.parse(p.procedure);
    return procedure.steps.map((s) => [`${p.id}/${s.id}`, p, procedure, s.id] as const);
  });

  // Procedures arrive in their own branch; until then there is nothing to render.
  if (steps.length === 0) it('has no procedures to render yet', () => expect(steps).toEqual([]));
  else
    it.each(steps)('%s stays within Block Kit limits', (_name, playbook, procedure, step) => {
      const record = createRecord({
        id: 'T1-C1-abcdef',
        workspace: 'T1',
        conversation: 'C1',
        playbook: { id: playbook.id, version: playbook.version, title: playbook.title },
        procedure,
        owner: 'U1',
        at: '2026-01-01T00:00:00.000Z',
      });
      const view = viewOf({ ...record, current: step });
      expect(view).toBeDefined();
      if (view) expect(blockKitProblems(stepMessage(view).blocks)).toEqual([]);
    });
});
