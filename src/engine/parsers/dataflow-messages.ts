import { EXTRACTORS } from '../extractors/registry.ts';
import { beamFindings } from '../extractors/runtime-versions.ts';
import type { Fact, FactValue } from '../facts.ts';
import { normalise } from '../ingest/normalise.ts';
import { fact, output, parseFailed } from './common.ts';
import { DataflowReader, type JobMessage, type JobSummary, RUNNER_LINE } from './dataflow-read.ts';
import type { Parser, ParserRun } from './types.ts';

/** A pasted messages response or job bigger than this is not one; stop buffering instead of growing. */
const MAX_CHARS = 16 * 1024 * 1024;

/**
 * What a message says about memory, by the fact kinds the engine's own extractors find in it: the
 * same rules read the message whether it is fetched, pasted as JSON or pasted from the runner's log.
 */
const MEMORY_KINDS: Readonly<Record<string, string>> = {
  'dataflow.worker-lost': 'workerLost',
  'os.oom-kill': 'oomKilled',
  'cause.sdk-harness-lost': 'harnessLost',
  'python.memory-error': 'memoryErrors',
  'dataflow.memory-limit': 'memoryLimit',
};
const EXTRACTOR_LIST = Object.values(EXTRACTORS);

/** "a work item has failed 4 times" / "A work item was attempted 4 times" (Dataflow's batch retries). */
const ATTEMPTS = /work item (?:has failed|was attempted) (\d{1,3}) times/i;

/** The fact kinds the engine's extractors find in one message, line by line. */
function kindsIn(message: JobMessage): Set<string> {
  const kinds = new Set<string>();
  for (const raw of message.text.split('\n')) {
    const line = normalise(raw);
    const lower = line.toLowerCase();
    for (const extractor of EXTRACTOR_LIST) {
      if (!extractor.triggers.some((t) => lower.includes(t))) continue;
      for (const finding of extractor.extract(line)) kinds.add(finding.kind);
    }
  }
  return kinds;
}

function messageValues(messages: readonly JobMessage[]): Record<string, number> {
  const values: Record<string, number> = { messages: messages.length, errors: 0, memoryMessages: 0 };
  for (const key of Object.values(MEMORY_KINDS)) values[key] = 0;
  let attempts = 0;
  for (const m of messages) {
    if (m.importance === 'JOB_MESSAGE_ERROR') values.errors = (values.errors ?? 0) + 1;
    const kinds = kindsIn(m);
    let memory = false;
    for (const [kind, key] of Object.entries(MEMORY_KINDS))
      if (kinds.has(kind)) {
        values[key] = (values[key] ?? 0) + 1;
        memory = true;
      }
    if (memory) values.memoryMessages = (values.memoryMessages ?? 0) + 1;
    attempts = Math.max(attempts, Number(ATTEMPTS.exec(m.text)?.[1] ?? 0));
  }
  if (attempts) values.workItemAttempts = attempts;
  return values;
}

/** Dataflow names a Python job's SDK "Apache Beam Python 3.10 SDK" (Beam's apiclient _get_python_sdk_name). */
const isPython = (job: JobSummary | undefined) => /\bPython\b/i.test(job?.sdkName ?? '');

/** The facts the job adds: its Beam Python release (and a known leak) as runtime-versions reads a pin. */
function jobFacts(job: JobSummary | undefined, messages: readonly JobMessage[]): Fact[] {
  const facts: Fact[] = [];
  const line = job?.line ?? messages[0]?.line ?? 1;
  const text = job ? `Dataflow job ${job.name ?? ''} ${job.sdkName ?? ''} ${job.sdkVersion ?? ''}` : '';
  if (job || messages.length) facts.push(fact('platform.dataflow', line, text || 'Dataflow job messages'));
  if (!job || !isPython(job)) return facts;
  facts.push(fact('engine.beam-python', line, text));
  if (job.sdkVersion && /^\d{1,2}\.\d{1,3}\.\d{1,3}$/.test(job.sdkVersion))
    for (const f of beamFindings(job.sdkVersion)) facts.push(fact(f.kind, line, text, f.values));
  return facts;
}

function jobValues(job: JobSummary | undefined): Record<string, FactValue> {
  if (!job) return {};
  const values: Record<string, FactValue> = {};
  if (job.state) values.state = job.state;
  if (job.type) values.jobType = job.type;
  if (job.sdkName) values.sdk = job.sdkName;
  if (job.sdkVersion) values.sdkVersion = job.sdkVersion;
  return values;
}

function verdictOf(values: Record<string, FactValue>, leak: Fact | undefined): string {
  if (leak) return `known SDK leak (${leak.values?.issue})`;
  if (Number(values.oomKilled) > 0 || Number(values.memoryErrors) > 0 || Number(values.memoryLimit) > 0)
    return 'workers ran out of memory';
  if (Number(values.workerLost) > 0 || Number(values.harnessLost) > 0)
    return 'workers lost, most often to memory';
  return Number(values.errors) > 0 ? 'errors, none about memory' : 'no error messages';
}

function summaryOf(job: JobSummary | undefined, values: Record<string, FactValue>): string {
  const about = job
    ? `Dataflow job ${job.name ?? ''} (${[job.type, job.state].filter(Boolean).join(', ')}) on ${job.sdkName ?? 'an unknown SDK'} ${job.sdkVersion ?? ''}`.replace(
        / {2,}/g,
        ' ',
      )
    : 'Dataflow job messages';
  const parts = [
    `${values.workerLost} lost worker(s)`,
    `${values.oomKilled} OOM kill(s)`,
    `${values.harnessLost} SDK harness(es) lost`,
  ];
  const attempts = values.workItemAttempts ? `, a work item tried ${values.workItemAttempts} times` : '';
  return `${about.trim()}; ${values.messages} message(s), ${values.errors} error(s): ${parts.join(', ')}${attempts}.`;
}

/**
 * Dataflow job messages (projects.locations.jobs.messages.list, as the REST API or `gcloud ...
 * --format=json` prints them, or as Beam's DataflowRunner logs them) and the job itself
 * (jobs.get): how many errors, which of them say a worker ran out of memory or was lost, and the
 * Beam SDK the job runs, with its known leaks.
 */
export const dataflowMessagesParser: Parser = {
  id: 'dataflow-messages',
  title: 'Dataflow job messages',
  howToGet:
    'curl -H "Authorization: Bearer $(gcloud auth print-access-token)" "https://dataflow.googleapis.com/v1b3/projects/<project>/locations/<region>/jobs/<job-id>/messages?minimumImportance=JOB_MESSAGE_ERROR", with `gcloud dataflow jobs describe <job-id> --region <region> --format=json` before it; or the JOB_MESSAGE_ lines the DataflowRunner printed',
  maxLineChars: MAX_CHARS,
  detect: (head) =>
    head.some(
      (l) =>
        l.includes('"jobMessages"') ||
        l.includes('"messageImportance"') ||
        l.includes('"JOB_STATE_') ||
        (l.includes('JOB_MESSAGE_') && RUNNER_LINE.test(l)),
    ),
  create(): ParserRun {
    const reader = new DataflowReader(MAX_CHARS);
    return {
      push: (line, lineNo) => reader.push(line, lineNo),
      finish() {
        reader.finish();
        const { job, messages } = reader;
        if (!job && messages.length === 0)
          throw parseFailed(
            'Dataflow job messages (a messages.list response, a JSON list of messages, or "<time>: JOB_MESSAGE_ERROR: <text>" lines) or a Dataflow job',
          );
        const values: Record<string, FactValue> = {
          ...messageValues(messages),
          ...jobValues(job),
          python: isPython(job),
        };
        const facts = jobFacts(job, messages);
        const leak = facts.find((f) => f.kind === 'beam.known-leak');
        return output(
          'dataflow-messages',
          values,
          summaryOf(job, values),
          facts,
          verdictOf(values, leak),
          job?.line ?? messages[0]?.line ?? 1,
        );
      },
    };
  },
};
