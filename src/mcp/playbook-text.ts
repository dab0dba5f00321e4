/**
 * A playbook as an agent reads it (the `playbooks` tool and `memdoctor://playbooks/<id>`): what it
 * recognises, what to do, how to verify, and its step-by-step procedure, as Markdown and as JSON.
 */
import { findPlaybook } from '../playbooks/load.ts';
import type { Playbook } from '../usecases/types.ts';
import { ProcedureSchema } from '../walkthrough/index.ts';
import type { ListedStep, PlaybookJsonValue } from './schemas.ts';

/** The procedure as loaded (the loader validated it); undefined when the playbook has none. */
function procedureOf(playbook: Playbook) {
  const parsed = ProcedureSchema.safeParse(playbook.procedure);
  return parsed.success ? parsed.data : undefined;
}

/** One playbook as JSON. */
export function playbookJson(playbook: Playbook): PlaybookJsonValue {
  const procedure = procedureOf(playbook);
  return {
    id: playbook.id,
    title: playbook.title,
    engine: playbook.engine,
    summary: playbook.summary,
    explanation: playbook.explanation,
    actions: playbook.actions.map((a) => a.text),
    verify: playbook.verify,
    sources: playbook.sources,
    ...(procedure ? { procedure } : {}),
  };
}

function stepLines(step: ListedStep, n: number): string[] {
  const lines = [`${n}. **${step.title}** (${step.kind}, \`${step.id}\`)`, `   ${step.text.trim()}`];
  const answers = (step as { answers?: { label: string; next: string }[] }).answers ?? [];
  for (const a of answers) lines.push(`   - ${a.label} → \`${a.next}\``);
  return lines;
}

/** One playbook as Markdown. */
export function playbookMarkdown(playbook: Playbook): string {
  const json = playbookJson(playbook);
  const out = [
    `# ${json.title} (\`${json.id}\`, ${json.engine})`,
    '',
    json.summary,
    '',
    json.explanation.trim(),
  ];
  out.push('', '## What to do', ...json.actions.map((a) => `- ${a}`));
  if (json.verify.length > 0) out.push('', '## Verify', ...json.verify.map((v) => `- ${v}`));
  if (json.procedure) {
    out.push('', `## Procedure (start: \`${json.procedure.start}\`)`);
    json.procedure.steps.forEach((step, i) => {
      out.push(...stepLines(step, i + 1));
    });
  } else out.push('', 'No step-by-step procedure yet: follow the actions above.');
  if (json.sources.length > 0) out.push('', '## Sources', ...json.sources.map((s) => `- ${s}`));
  return `${out.join('\n')}\n`;
}

/** The playbook with that id among the configured ones; PlaybookNotFoundError names the known ones. */
export function playbookById(playbooks: readonly Playbook[], id: string): Playbook {
  return findPlaybook(playbooks, id);
}
