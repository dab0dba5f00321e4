import type { Playbook } from '../../usecases/types.ts';
import { ENGINE_HINTS } from '../../usecases/types.ts';
import { context, fitLines, type MessageView, mrkdwn, section } from './blocks.ts';
import { LIMITS } from './limits.ts';

/** `/memdoctor help`: every verb with one line each. */
export function helpView(): MessageView {
  const lines = [
    '`/memdoctor &lt;pasted error&gt;` diagnose a pasted log or stack trace',
    `\`/memdoctor ${ENGINE_HINTS.join('|')} &lt;paste&gt;\` same, telling memdoctor which system it came from`,
    '`/memdoctor` open a form for pastes too long for one command',
    '`/memdoctor list` the problems memdoctor knows',
    '`/memdoctor walk &lt;playbook&gt;` start a step-by-step walkthrough in this channel',
    '`/memdoctor status` walkthroughs running in this channel',
    '`/memdoctor calc ...` memory arithmetic (executor sizes, overhead)',
    '`/memdoctor check flink|spark|yarn|k8s|glue|dataflow &lt;id&gt;` fetch the evidence from a configured system (connectors.yaml) and diagnose it',
    '`/memdoctor private &lt;paste&gt;` a diagnosis only you see; its walkthrough runs in a DM',
    '`/memdoctor stats` what was diagnosed here and which fixes worked',
    '`/memdoctor handover @user` (in a walkthrough thread) pass the walkthrough to the next on-call',
  ];
  return {
    text: 'memdoctor help',
    blocks: [
      section(
        `*memdoctor* diagnoses memory trouble in Glue, Spark, Flink and Beam jobs.\n${lines.join('\n')}`,
      ),
      context(
        'Upload a log (plain or .gz) into a memdoctor thread, or mention @memdoctor with a file. On any message: ⋯ → *Diagnose with memdoctor*. Or send memdoctor a DM.',
      ),
    ],
  };
}

/** `/memdoctor list`: the loaded playbooks. */
export function listView(playbooks: readonly Playbook[]): MessageView {
  if (playbooks.length === 0)
    return { text: 'No playbooks are loaded.', blocks: [section('No playbooks are loaded.')] };
  const lines = playbooks.map(
    (p) =>
      `• \`${p.id}\` ${mrkdwn(p.title)} (${p.engine})${p.procedure !== undefined ? ' · walkthrough' : ''}`,
  );
  return {
    text: `memdoctor knows ${playbooks.length} problems`,
    blocks: [section(`*Known problems*\n${fitLines(lines, LIMITS.sectionText - 30)}`)],
  };
}

/** A short message for the person who asked: what went wrong and what to do. */
export function noticeView(text: string): MessageView {
  // The fallback text is mrkdwn too (notifications, clients without blocks): escaped alike.
  return { text: mrkdwn(text), blocks: [section(mrkdwn(text))] };
}
