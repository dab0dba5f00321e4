/**
 * An answer as plain lines of text, for the surfaces that print text (the terminal, the MCP tools'
 * `content`). One wording for all of them; a surface adds only its style (colours) and the command
 * it names for the next step (`memdoctor walk`, `walkthrough_start`, `--engine`).
 */
import type { CaseReport } from '../diagnosis/index.ts';
import { formatCite } from '../diagnosis/index.ts';
import { type FactValue, formatSize, type ParsedOutput } from './parse-dump.ts';
import type { InputReport } from './types.ts';

const MAX_EVIDENCE_SHOWN = 6;

/** What a surface puts around parts of an answer; every part is plain text without it. */
export interface TextStyle {
  title(text: string): string;
  warning(text: string): string;
  command(text: string): string;
}

const identity = (text: string) => text;
const PLAIN_STYLE: TextStyle = {
  title: identity,
  warning: identity,
  command: identity,
};

/** How one surface words the parts that differ: its heading, and the next step it names. */
export interface ReportWording {
  style?: TextStyle;
  heading(report: InputReport): string;
  /** The last line when nothing was recognised. */
  whenNone: string;
  /** The last line of a diagnosis: how to walk through its fix. */
  walkHint(playbook: string, style: TextStyle): string;
}

export function percent(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

/** One input's report: the top diagnosis in full (cited lines, actions), the others in one line each. */
export function reportLines(
  report: InputReport,
  lookedFor: readonly string[],
  wording: ReportWording,
): string[] {
  const style = wording.style ?? PLAIN_STYLE;
  const out = [wording.heading(report)];
  const [top, ...rest] = report.diagnoses;
  if (!top) {
    out.push(style.warning('No known memory problem recognised.'), `Looked for: ${lookedFor.join(', ')}.`);
    out.push(wording.whenNone);
    return out;
  }
  out.push(`${style.title(top.title)}  [${top.playbook}, confidence ${percent(top.confidence)}]`);
  if (top.cause) out.push(`Likely cause: ${top.cause}`);
  out.push('Evidence:');
  for (const e of top.evidence.slice(0, MAX_EVIDENCE_SHOWN)) out.push(`  line ${e.line}: ${e.text}`);
  if (top.evidence.length > MAX_EVIDENCE_SHOWN)
    out.push(`  … ${top.evidence.length - MAX_EVIDENCE_SHOWN} more lines`);
  out.push('What to do:');
  for (const [i, action] of top.actions.entries()) out.push(`  ${i + 1}. ${action}`);
  if (rest.length > 0) {
    out.push('Other possibilities:');
    for (const d of rest) out.push(`  - ${d.title} [${d.playbook}, ${percent(d.confidence)}]`);
  }
  out.push(wording.walkHint(top.playbook, style));
  return out;
}

type CaseDiagnosis = CaseReport['groups'][number]['diagnoses'][number];

/** One diagnosis of a case: its title, the cause an input refined (and which), evidence, actions. */
function caseDiagnosisLines(d: CaseDiagnosis): string[] {
  const out = [`  ${d.title} (${percent(d.confidence)})`];
  if (d.refinedBy)
    out.push(
      `    cause: ${d.refinedBy.title}, from ${formatCite(d.refinedBy.evidence)}: ${d.refinedBy.because}`,
    );
  for (const e of d.evidence) out.push(`    ${formatCite(e)}  ${e.text}`);
  for (const action of d.actions) out.push(`    - ${action}`);
  return out;
}

type Unmatched = NonNullable<CaseReport['groups'][number]['unmatched']>;

/** How a surface names the system a case could be read as: `--engine beam`, `engine: beam`. */
export type EngineHintText = (engine: string) => string;

/** The CLI's words; the console and MCP name their own. */
export const CLI_ENGINE_HINT: EngineHintText = (engine) => `run it again with --engine ${engine}`;

/**
 * No playbook matched: what the inputs show all the same (the kill, the growth, the growing line),
 * and, when their process is one a system's playbook reads, how to name that system.
 */
export function unmatchedLines(unmatched: Unmatched | undefined, hint: EngineHintText): string[] {
  if (!unmatched || unmatched.shown.length === 0) return ['  no known problem found'];
  const out = ['  no playbook matched; what the inputs show:'];
  for (const said of unmatched.shown) out.push(`    ${said}`);
  const engine = unmatchedEngineText(unmatched, hint);
  if (engine) out.push(`  ${engine}`);
  return out;
}

/** "If this is a Beam worker, …": the system to name, why it was not applied, and the surface's way. */
export function unmatchedEngineText(unmatched: Unmatched, hint: EngineHintText): string | undefined {
  const named = unmatched.ifEngine;
  if (!named) return undefined;
  const system = named.engine[0]?.toUpperCase() + named.engine.slice(1);
  return `If this is a ${system} worker, ${hint(named.engine)}: the ${named.playbook} playbook then reads these inputs. ${named.why}`;
}

/** A case's answer: each group, what joined it, its diagnoses citing `input:line`, the notes. */
export function caseLines(report: CaseReport, hint: EngineHintText = CLI_ENGINE_HINT): string[] {
  const out: string[] = [];
  report.groups.forEach((group, i) => {
    out.push(`Case ${i + 1}: ${group.inputs.join(', ')}`);
    for (const key of group.joinedBy) out.push(`  joined by ${key}`);
    for (const process of group.processes) out.push(`  one process: ${process}`);
    if (group.container) out.push(`  container used: ${group.container.used}: ${group.container.why}`);
    for (const said of group.contradictions) out.push(`  ${said}`);
    if (group.diagnoses.length === 0) out.push(...unmatchedLines(group.unmatched, hint));
    for (const d of group.diagnoses) out.push(...caseDiagnosisLines(d));
  });
  for (const note of report.notes) out.push(`Note: ${note}`);
  return out;
}

function shownValue(key: string, value: FactValue): string {
  if (typeof value === 'number' && /Bytes$/.test(key)) return `${formatSize(value)} (${value})`;
  if (typeof value === 'number' && /Share$/.test(key)) return `${(value * 100).toFixed(1)}%`;
  return String(value);
}

/** What a parser read: its summary, its verdict, then each figure (keys padded to `keyWidth`). */
export function parsedLines(out: ParsedOutput, keyWidth = 0): string[] {
  const lines = [`${out.format}: ${out.summary}`];
  if (out.verdict) lines.push(`verdict: ${out.verdict}`);
  if (keyWidth > 0) lines.push('');
  for (const [key, value] of Object.entries(out.values))
    lines.push(
      keyWidth > 0
        ? `  ${key.padEnd(keyWidth)} ${shownValue(key, value)}`
        : `  ${key}: ${shownValue(key, value)}`,
    );
  return lines;
}
