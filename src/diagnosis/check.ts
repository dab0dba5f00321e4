import type { ConnectorName, ConnectorsConfig, ConnectorTargets } from '../connectors/config.ts';
import { CONNECTORS, fetchWith } from '../connectors/registry.ts';
import { type Fetched, type FetchRequest, requestText } from '../connectors/types.ts';
import type { ChartData } from '../engine/charts/types.ts';
import type { Diagnosis, Evidence, InputReport } from '../engine/index.ts';
import { isEmptyAnswer, parseText } from '../engine/parsers/parse-text.ts';
import { NO_LIMIT_NOTE } from '../engine/parsers/spark-executors.ts';
import type { ParsedOutput } from '../engine/parsers/types.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { ConnectorError, UsageError } from '../errors.ts';
import { type Plan, planFor } from './check-plan.ts';
import { diagnose } from './diagnose.ts';
import type { Admission, Asker, Audience, FetchGate } from './fetch-access.ts';

/** `check flink [--job <id>]`, `check spark|yarn <app>`, `check kubernetes <ns>/<pod>`, `check glue <job>/<run>`. */
export interface CheckRequest {
  system: ConnectorName;
  /** The Flink job id (optional), the Spark / YARN application id, the pod, or Glue's `<job-name>/<run-id>`. */
  id?: string;
  workspace: string;
  /** Who asks, from where: the access rule and the caps are checked for them before any request. */
  asker: Asker;
}

export interface CheckContext {
  connectors: ConnectorsConfig;
  /** Who may fetch what, and how many at once (src/diagnosis/fetch-access.ts). */
  gate: FetchGate;
  playbooks: readonly Playbook[];
  now?: () => Date;
}

/** One fetched answer with the judgement its parser gave, as a paste of it would get. */
export interface CheckedAnswer {
  connector: string;
  path: string;
  fetchedAt: string;
  parser?: string;
  judgement?: Pick<ParsedOutput, 'summary' | 'values'> & { verdict?: string };
  citations: string[];
}

export interface CheckResult {
  /** `diagnose --json`'s shape; evidence of line 0 is a fetched field, not a line of a paste. */
  report: InputReport;
  fetched: CheckedAnswer[];
  notes: string[];
  /** Who may see the answer and its evidence: the channel, or only the asker (connectors.yaml access). */
  audience: Audience;
  /** What to draw of the fetched answers (a metric series, a memory model), in fetch order; not in the report. */
  charts?: ChartData[];
  /** The fetched answers as the parsers read them, each named by its path: what a case keeps of a check. */
  inputs?: { source: string; text: string }[];
}

/** What a connectors.yaml entry needs first, named when the entry is missing. */
const SETTING_NEEDED: Readonly<Record<ConnectorName, string>> = {
  flink: 'url',
  spark: 'url',
  yarn: 'url',
  kubernetes: 'kubeconfig or inCluster',
  glue: 'region',
  dataflow: 'project and location',
};

/**
 * What the parser reads. flink-job-slots judges a job against the cluster, so it gets /overview and
 * the job one after the other, as `curl .../overview; echo; curl .../jobs/<id>` prints them.
 */
function pasteOf(answer: Fetched, all: readonly Fetched[]): string {
  if (answer.parser !== 'flink-job-slots') return answer.paste;
  const overview = all.find((a) => a.resource === 'overview');
  return overview ? `${overview.paste}\n${answer.paste}` : answer.paste;
}

function judge(
  answer: Fetched,
  all: readonly Fetched[],
  notes: string[],
  charts: ChartData[],
): CheckedAnswer {
  const { connector, path, fetchedAt } = answer.from;
  const base = { connector, path, fetchedAt, citations: answer.citations };
  if (!answer.parser) return base;
  if (isEmptyAnswer(answer.paste)) {
    // A valid answer that holds nothing is said for what it means, not parsed as the wrong output.
    const connectorName = connector as ConnectorName;
    const empty = CONNECTORS[connectorName]?.resources[answer.resource]?.empty;
    if (empty) notes.push(`${requestText(path)}: ${empty}.`);
    return base;
  }
  try {
    const parsed = parseText(answer.parser, pasteOf(answer, all));
    const judgement = {
      summary: parsed.summary,
      values: parsed.values,
      ...(parsed.verdict ? { verdict: parsed.verdict } : {}),
    };
    if (parsed.chart) charts.push(parsed.chart);
    return { ...base, parser: answer.parser, judgement };
  } catch (error) {
    notes.push(`${path}: ${(error as Error).message}`);
    return { ...base, parser: answer.parser };
  }
}

async function fetchAll<K extends ConnectorName>(
  system: K,
  plan: Plan,
  context: CheckContext,
  notes: string[],
) {
  const target: ConnectorTargets[K] | undefined = (context.connectors as Partial<ConnectorTargets>)[system];
  if (!target)
    throw new UsageError(
      `${system} is not configured: add a "${system}:" entry with its ${SETTING_NEEDED[system]} to the connectors.yaml that MEMDOCTOR_CONNECTORS names (docs/connectors.md).`,
    );
  const fetched: Fetched[] = [];
  const failures: ConnectorError[] = [];
  const fetchEach = async (requests: readonly FetchRequest[]) => {
    for (const one of requests) {
      try {
        fetched.push(await fetchWith(system, target, one, context.now));
      } catch (error) {
        if (!(error instanceof ConnectorError)) throw error;
        failures.push(error);
        notes.push(error.message);
      }
    }
  };
  await fetchEach(plan.requests);
  await fetchEach(plan.next?.(fetched) ?? []);
  // One answer missing still leaves a judgement; none at all is the failure itself.
  if (fetched.length === 0 && failures[0]) throw failures[0];
  return fetched;
}

/** The engine's diagnoses of one answer, citing its fetched fields first (line 0) and then its lines. */
async function diagnosesOf(
  answer: Fetched,
  all: readonly Fetched[],
  plan: Plan,
  request: CheckRequest,
  context: CheckContext,
) {
  const text = pasteOf(answer, all);
  if (text.trim() === '') return [];
  const input = { source: answer.from.path, text };
  const result = await diagnose(
    { input, workspace: request.workspace, ...(plan.hint ? { engine: plan.hint } : {}) },
    { playbooks: context.playbooks },
  );
  const fields: Evidence[] = answer.citations.map((text) => ({ line: 0, text }));
  return result.report.diagnoses.map((d) => ({ ...d, evidence: [...fields, ...d.evidence] }));
}

/** The answers diagnosed together as one input (their texts one after the other), then the others. */
function diagnosedInputs(fetched: readonly Fetched[], plan: Plan): Fetched[] {
  const together = fetched.filter((a) => plan.together?.includes(a.resource));
  const alone = fetched.filter((a) => !plan.together?.includes(a.resource));
  const [first] = together;
  if (!first || together.length < 2) return [...together, ...alone];
  const joined: Fetched = {
    resource: together.map((a) => a.resource).join('+'),
    from: { ...first.from, path: together.map((a) => a.from.path).join(', ') },
    body: '',
    paste: together.map((a) => a.paste).join('\n'),
    citations: together.flatMap((a) => a.citations),
  };
  return [joined, ...alone];
}

/** The most confident diagnosis per playbook, ranked as diagnose ranks them. */
function merge(diagnoses: readonly Diagnosis[]): Diagnosis[] {
  const best = new Map<string, Diagnosis>();
  for (const d of diagnoses) {
    const kept = best.get(d.playbook);
    if (!kept || d.confidence > kept.confidence) best.set(d.playbook, d);
  }
  return [...best.values()].sort(
    (a, b) => b.confidence - a.confidence || a.playbook.localeCompare(b.playbook),
  );
}

/** The configured URL, the AWS region, or for Kubernetes the kubeconfig context (or in-cluster): never a credential. */
function whereFrom(system: ConnectorName, connectors: ConnectorsConfig): string {
  if (system === 'glue') return connectors.glue ? `region ${connectors.glue.region}` : '';
  if (system === 'dataflow')
    return connectors.dataflow ? `${connectors.dataflow.project}/${connectors.dataflow.location}` : '';
  if (system !== 'kubernetes') return connectors[system]?.url ?? '';
  const credentials = connectors.kubernetes?.credentials;
  if (credentials?.kind === 'kubeconfig') return credentials.context ?? credentials.file;
  return credentials ? 'in-cluster' : '';
}

/**
 * The check use case: fetch what the system's API holds for a job or application, judge each
 * answer with the parser a paste of it would get, and diagnose it as `diagnose` would the paste.
 * The CLI calls it now; Slack's `/memdoctor check` can call it the same way.
 */
export async function check(request: CheckRequest, context: CheckContext): Promise<CheckResult> {
  const plan = planFor(request);
  const admission = await context.gate.admit(
    { connector: request.system, kind: 'check', ...(request.id ? { ids: { id: request.id } } : {}) },
    request.asker,
  );
  const fetched = await fetchAdmitted(request, plan, context, admission);
  return {
    ...(await diagnoseFetched(request, plan, context, fetched.answers, fetched.notes)),
    audience: admission.audience,
  };
}

/** The plan's fetches, the admission ended with what was asked for, whatever happened. */
async function fetchAdmitted(request: CheckRequest, plan: Plan, context: CheckContext, admission: Admission) {
  const notes: string[] = [];
  try {
    const answers = await fetchAll(request.system, plan, context, notes);
    admission.done({ paths: answers.map((a) => a.from.path) });
    return { answers, notes };
  } catch (error) {
    admission.done({ paths: [], failed: (error as Error).message });
    throw error;
  }
}

/**
 * The executors' peaks against spark.executor.memory, which the executor list does not carry and the
 * application's /environment does: read together, the heap peaks get their limit.
 */
function withExecutorMemory(chart: ChartData, answers: readonly CheckedAnswer[]): ChartData {
  if (chart.kind !== 'peaks' || chart.id !== 'spark-executor-peaks') return chart;
  const env = answers.find((a) => a.parser === 'spark-environment')?.judgement?.values;
  const memory = env?.executorMemoryBytes;
  if (typeof memory !== 'number' || memory <= 0) return chart;
  const { note: said, ...rest } = chart;
  const note = said
    ?.split('; ')
    .filter((n) => n !== NO_LIMIT_NOTE)
    .join('; ');
  return { ...rest, limitBytes: memory, limitLabel: 'spark.executor.memory', ...(note ? { note } : {}) };
}

async function diagnoseFetched(
  request: CheckRequest,
  plan: Plan,
  context: CheckContext,
  fetched: Fetched[],
  notes: string[],
): Promise<Omit<CheckResult, 'audience'>> {
  const drawn: ChartData[] = [];
  const answers = fetched.map((answer) => judge(answer, fetched, notes, drawn));
  const charts = drawn.map((c) => withExecutorMemory(c, answers));
  const found: Diagnosis[] = [];
  for (const answer of diagnosedInputs(fetched, plan))
    found.push(...(await diagnosesOf(answer, fetched, plan, request, context)));
  const texts = fetched.map((a) => pasteOf(a, fetched));
  const input = {
    bytes: texts.reduce((s, t) => s + Buffer.byteLength(t), 0),
    lines: texts.reduce((s, t) => s + t.split('\n').length, 0),
  };
  const source = `${request.system} ${whereFrom(request.system, context.connectors)}`.trim();
  const report = { source, input, diagnoses: merge(found) };
  const inputs = fetched.map((a, i) => ({ source: a.from.path, text: texts[i] ?? '' }));
  return { report, fetched: answers, notes, inputs, ...(charts.length ? { charts } : {}) };
}
