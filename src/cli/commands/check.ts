import { parseArgs } from 'node:util';
import { loadConfig } from '../../config.ts';
import { configuredPlaybooks, openFetching } from '../../console.ts';
import { UsageError } from '../../errors.ts';
import { CONNECTOR_NAMES } from '../../usecases/connector-names.ts';
import { type CheckResult, type ConnectorName, check, requestText } from '../../usecases/connectors.ts';
import { CHART_OPTION, shapeText, writeCharts } from '../charts.ts';
import type { CliIo, Command } from '../command.ts';
import { terminalColors } from '../render/colors.ts';
import { renderReport } from '../render/diagnosis.ts';

const SYSTEMS: readonly ConnectorName[] = CONNECTOR_NAMES;
/** The name kubectl users type for Kubernetes. */
const ALIASES: Readonly<Record<string, ConnectorName>> = { k8s: 'kubernetes' };
const USAGE =
  'usage: memdoctor check flink [--job <id>] | spark <app-id> | yarn <app-id> | kubernetes <namespace>/<pod> | glue <job-name>/<run-id> | dataflow <job-id>';
/** What each system's check takes as its id, for the messages. */
const ID_TAKEN: Readonly<Record<ConnectorName, string>> = {
  flink: '--job <id>',
  spark: 'the application id',
  yarn: 'the application id',
  kubernetes: 'the pod',
  glue: '<job-name>/<run-id>',
  dataflow: 'the job id',
};

function parse(args: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, job: { type: 'string' }, ...CHART_OPTION },
  });
  const [typed = '', id, ...rest] = positionals;
  const system = ALIASES[typed] ?? typed;
  if (!SYSTEMS.includes(system as ConnectorName) || rest.length > 0)
    throw new UsageError(`${USAGE} (got "${positionals.join(' ')}")`);
  if (system === 'flink' && id !== undefined)
    throw new UsageError('check flink takes the job id as --job <id>');
  if (system !== 'flink' && values.job !== undefined)
    throw new UsageError(
      `--job is for check flink; check ${system} takes ${ID_TAKEN[system as ConnectorName]}`,
    );
  // Glue's use case says what a job name and run id look like; it is the one that splits them.
  if (system !== 'flink' && system !== 'glue' && id === undefined)
    throw new UsageError(
      system === 'kubernetes'
        ? 'check kubernetes needs the pod, e.g. memdoctor check kubernetes <namespace>/<pod>'
        : system === 'dataflow'
          ? 'check dataflow needs the job id, e.g. memdoctor check dataflow 2024-06-19_09_43_07-14927685200167458422'
          : `check ${system} needs the application id, e.g. memdoctor check ${system} <app-id>`,
    );
  const wanted = system === 'flink' ? values.job : id;
  const chartDir = values.chart;
  return {
    system: system as ConnectorName,
    json: values.json ?? false,
    ...(wanted ? { id: wanted } : {}),
    ...(chartDir !== undefined ? { chartDir } : {}),
  };
}

/** Each fetched answer: where from and when, its parser's judgement, the fields it cites. */
function renderFetched(result: CheckResult): string {
  const lines: string[] = [];
  for (const a of result.fetched) {
    lines.push(`fetched ${a.connector} ${requestText(a.path)} at ${a.fetchedAt}`);
    if (a.judgement) lines.push(`  ${a.parser}: ${a.judgement.summary}`);
    for (const c of a.citations) lines.push(`  - ${c}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The fetched answers, then the report (or `--json`), then any charts. */
function write(result: CheckResult, request: ReturnType<typeof parse>, lookedFor: string[], io: CliIo): void {
  if (request.json) {
    io.stdout.write(`${JSON.stringify({ ...result.report, fetched: result.fetched })}\n`);
    return;
  }
  io.stdout.write(
    renderFetched(result) +
      renderReport(
        result.report,
        lookedFor,
        terminalColors(io.stdout),
        // check has no --engine: the system is the one it asked, and each answer's judgement is above.
        `Nothing ${request.system} answered matches a known memory problem; each answer's own judgement is listed above.`,
      ) +
      (result.charts ?? []).map((c) => shapeText(c, io)).join(''),
  );
}

/** `memdoctor check flink|spark|yarn|kubernetes|glue|dataflow ...`: fetch the evidence from the configured API and diagnose it. */
export const checkCommand: Command = {
  async run(args, io: CliIo) {
    const request = parse(args);
    const config = loadConfig();
    const playbooks = configuredPlaybooks(config);
    const { connectors, gate, person, note, close } = await openFetching(config);
    if (note) io.stderr.write(`memdoctor: ${note}\n`);
    // The terminal's user holds connectors.yaml and its credentials: the access rules name Slack people.
    // The caps count them as `person`, in serve's Redis when one is configured (docs/connectors.md).
    const asker = { surface: 'cli' as const, ...person };
    const asked = {
      system: request.system,
      workspace: 'cli',
      asker,
      ...(request.id ? { id: request.id } : {}),
    };
    const result = await check(asked, { connectors, playbooks, gate }).finally(close);
    for (const line of result.notes) io.stderr.write(`memdoctor: ${line}\n`);
    write(
      result,
      request,
      playbooks.map((p) => p.id),
      io,
    );
    if (request.chartDir !== undefined)
      await writeCharts(request.chartDir, result.charts ?? [], io, request.json);
    return 0;
  },
};
