import { drawChart } from '../engine/charts/index.ts';
import { walkthroughCharts } from './charts.ts';
import { answerText } from './known.ts';
import { stepById } from './prefill.ts';
import type { AuditEntry, WalkthroughRecord } from './record.ts';
import { stepKind } from './steps/registry.ts';
import { viewOf } from './view.ts';

/** Keeps a value on one Markdown line and out of table syntax. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

function time(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

function header(record: WalkthroughRecord): string[] {
  return [
    `# Walkthrough: ${record.playbook.title}`,
    '',
    `- Id: \`${record.id}\``,
    `- Playbook: \`${record.playbook.id}\` (version \`${record.playbook.version}\`)`,
    `- Status: ${record.status}`,
    `- Started: ${time(record.createdAt)} by ${record.owner}; last change ${time(record.updatedAt)}`,
    `- Participants: ${record.participants.join(', ')}`,
  ];
}

/** A Markdown image: the alt text on one line, its brackets escaped so it cannot end the link early. */
function image(alt: string, file: string): string {
  return `![${cell(alt).replace(/([[\]])/g, '\\$1')}](${encodeURI(file)})`;
}

function steps(record: WalkthroughRecord): string[] {
  const charts = new Map(walkthroughCharts(record).map((c) => [c.step, c]));
  const out = ['', '## Steps', ''];
  if (record.path.length === 0) out.push('No step answered yet.');
  record.path.forEach((entry, i) => {
    const title = stepById(record, entry.step).title;
    const who = entry.prefilled ? 'known already' : `${entry.by}, ${time(entry.at)}`;
    out.push(`${i + 1}. **${cell(title)}**: ${cell(answerText(entry.answer))} (${who})`);
    if (entry.because) out.push(`   - ${cell(entry.because)}`);
    for (const line of stepKind(entry.answer.kind).transcript?.(entry.answer) ?? [])
      out.push(`   - ${cell(line)}`);
    const chart = charts.get(entry.step);
    if (chart) out.push(`   - ${image(drawChart(chart.data).alt, chart.file)}`);
  });
  return out;
}

function ending(record: WalkthroughRecord): string[] {
  const view = viewOf(record);
  if (!view) return [];
  if (record.status === 'done' && view.final) {
    const out = ['', `## Conclusion: ${view.title}`, '', view.text, '', '### Fix', ''];
    for (const fix of view.fix ?? []) out.push(`- ${fix}`);
    out.push('', '### How to verify', '');
    for (const check of view.verify ?? []) out.push(`- ${check}`);
    return out;
  }
  const where = record.status === 'abandoned' ? 'Abandoned at' : 'Waiting at';
  return ['', `## ${where}: ${view.title}`];
}

function audit(entries: readonly AuditEntry[]): string[] {
  const out = [
    '',
    '## Audit trail',
    '',
    '| When (UTC) | Who | What | Step | Detail |',
    '|---|---|---|---|---|',
  ];
  for (const e of entries)
    out.push(
      `| ${e.at.slice(0, 19).replace('T', ' ')} | ${cell(e.actor)} | ${e.event} | ${e.step ?? ''} | ${cell(e.detail)} |`,
    );
  return out;
}

/**
 * The walkthrough as Markdown for incident notes: who answered what, the conclusion, the audit
 * trail (the whole one from the store; the record alone holds only its recent entries).
 */
export function renderTranscript(
  record: WalkthroughRecord,
  trail: readonly AuditEntry[] = record.audit,
): string {
  return `${[...header(record), ...steps(record), ...ending(record), ...audit(trail)].join('\n')}\n`;
}
