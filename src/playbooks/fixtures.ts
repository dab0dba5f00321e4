import { closeSync, createReadStream, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { diagnoseHeapDump, looksLikeHeapDump } from '../diagnosis/heap-dump.ts';
import { failureNote } from '../diagnosis/notes.ts';
import { type Diagnosis, diagnoseStream, ENGINE_HINTS, type InputReport } from '../engine/index.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { PlaybookInvalidError } from '../errors.ts';
import { fileChunks } from '../file-chunks.ts';

/** One fixture: an input file and the top diagnosis it must get ("none" for no diagnosis). */
export const FixtureCaseSchema = z.strictObject({
  file: z.string().min(1),
  expect: z.string().min(1),
  cause: z.string().nullable().optional(),
  /** The top diagnosis' title, when the case is about which one it takes (the playbook's `titles`). */
  title: z.string().optional(),
  engine: z.enum(ENGINE_HINTS).optional(),
  source: z.string().min(1),
  note: z.string().optional(),
  /** Lines (1-based) that must be among the evidence. */
  evidence: z.array(z.number().int().positive()).optional(),
  /** Substrings that must appear in one of the actions (computed values). */
  actions: z.array(z.string()).optional(),
  /** Substrings no action may contain: advice that would mislead for this input. */
  no_actions: z.array(z.string()).optional(),
});
export type FixtureCase = z.infer<typeof FixtureCaseSchema>;

export interface FixtureResult {
  playbook: string;
  fixture: string;
  ok: boolean;
  detail: string;
}

/** The fixture cases of a playbook, validated; a playbook without fixtures is an error. */
export function fixtureCases(playbook: Playbook): FixtureCase[] {
  const file = join(playbook.dir, 'fixtures', 'cases.yaml');
  if (!existsSync(file))
    throw new PlaybookInvalidError(file, '  ✖ missing: every playbook needs fixtures/cases.yaml');
  const parsed = z
    .array(FixtureCaseSchema)
    .min(1)
    .safeParse(parseYaml(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new PlaybookInvalidError(file, z.prettifyError(parsed.error));
  return parsed.data;
}

/**
 * A fixture's diagnosis: a heap dump (a `.hprof[.gz]` a case may name by a path into
 * test/fixtures/heap-dumps, so the real dumps are not copied) through the heap analysis, a log
 * through the line engine.
 */
async function diagnoseFixture(
  path: string,
  fixture: FixtureCase,
  playbooks: readonly Playbook[],
): Promise<{ report: InputReport; failures: Awaited<ReturnType<typeof diagnoseStream>>['failures'] }> {
  const head = fileHead(path);
  if (!looksLikeHeapDump(head))
    return diagnoseStream(path, createReadStream(path), playbooks, { engine: fixture.engine });
  const seekable = { locator: path, size: 0, read: (from: number) => fileChunks(path, from) };
  const input = { source: path, head, all: fileChunks(path), seekable };
  const { report } = await diagnoseHeapDump(input, playbooks);
  return { report, failures: [] };
}

/** A file's first 64 KiB: enough to tell a heap dump, plain or inside gzip. */
function fileHead(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const head = new Uint8Array(1 << 16);
    return head.subarray(0, readSync(fd, head, 0, head.length, 0));
  } finally {
    closeSync(fd);
  }
}

/** How the top diagnosis differs from the fixture's playbook, cause and title. */
function headProblems(top: Diagnosis | undefined, fixture: FixtureCase): string[] {
  const problems: string[] = [];
  if ((top?.playbook ?? 'none') !== fixture.expect)
    problems.push(`expected ${fixture.expect}, got ${top?.playbook ?? 'none'}`);
  if (fixture.cause !== undefined && (top?.cause ?? null) !== fixture.cause)
    problems.push(`expected cause ${fixture.cause}, got ${top?.cause ?? 'null'}`);
  if (fixture.title !== undefined && top?.title !== fixture.title)
    problems.push(`expected the title "${fixture.title}", got "${top?.title ?? 'none'}"`);
  return problems;
}

/** Runs one fixture and says what, if anything, differs from what it expects. */
export async function runFixture(
  playbook: Playbook,
  fixture: FixtureCase,
  playbooks: readonly Playbook[],
): Promise<FixtureResult> {
  const path = join(playbook.dir, 'fixtures', fixture.file);
  const { report, failures } = await diagnoseFixture(path, fixture, playbooks);
  const top = report.diagnoses[0];
  // An extractor that throws on a fixture is a bug, even when the diagnosis survives it.
  const problems = [
    ...failures.filter((f) => f.stage === 'extractor').map(failureNote),
    ...headProblems(top, fixture),
  ];
  const cited = new Set(top?.evidence.map((e) => e.line) ?? []);
  for (const line of fixture.evidence ?? []) if (!cited.has(line)) problems.push(`line ${line} not cited`);
  for (const text of fixture.actions ?? []) {
    if (!top?.actions.some((a) => a.includes(text))) problems.push(`no action mentions "${text}"`);
  }
  for (const text of fixture.no_actions ?? []) {
    if (top?.actions.some((a) => a.includes(text))) problems.push(`an action mentions "${text}"`);
  }
  return {
    playbook: playbook.id,
    fixture: fixture.file,
    ok: problems.length === 0,
    detail: problems.join('; '),
  };
}

/** Runs every fixture of every playbook, in playbook then file order. */
export async function runFixtures(playbooks: readonly Playbook[]): Promise<FixtureResult[]> {
  const results: FixtureResult[] = [];
  for (const playbook of playbooks) {
    for (const fixture of fixtureCases(playbook))
      results.push(await runFixture(playbook, fixture, playbooks));
  }
  return results;
}
