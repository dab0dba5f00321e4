import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.ts';
import type { AlertsConfig } from './config.ts';
import { OFFLINE_SOURCES, type OfflineResult, type OfflineSource, tryPayload } from './offline.ts';
import { PayloadInvalidError } from './payloads/parsed.ts';
import type { IdCheck } from './route.ts';

/** What `memdoctor alerts` is handed by the root (src/memdoctor.ts): the routing file and the id checks. */
export interface AlertsCommandDeps {
  /** MEMDOCTOR_ALERTS read and checked; a ConfigInvalidError when unset or wrong. */
  config(): AlertsConfig;
  /** The use case's id checks over the configured connectors (none configured: every id is refused). */
  idCheck(): IdCheck;
}

interface CommandIo {
  stdout: { write(text: string): unknown };
}

const USAGE = `memdoctor alerts test <payload.json> [--source ${OFFLINE_SOURCES.join('|')}]`;

const parse = (args: string[]) =>
  parseArgs({ args, options: { source: { type: 'string' } }, allowPositionals: true, strict: true });

function argsOf(args: readonly string[]): { file: string; source?: OfflineSource } {
  const [verb, ...rest] = args;
  if (verb !== 'test') throw new UsageError(`usage: ${USAGE}`);
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(rest);
  } catch (error) {
    throw new UsageError(`${(error as Error).message}; usage: ${USAGE}`);
  }
  const [file, ...extra] = parsed.positionals;
  if (!file || extra.length > 0) throw new UsageError(`alerts test takes one payload file; usage: ${USAGE}`);
  const source = parsed.values.source;
  if (source === undefined) return { file };
  if (!(OFFLINE_SOURCES as readonly string[]).includes(source))
    throw new UsageError(`--source takes ${OFFLINE_SOURCES.join(', ')}; got "${source}".`);
  return { file, source: source as OfflineSource };
}

/** The result as a person reads it: each alert, its route and channel, the ids kept and those refused. */
export function offlineText(result: OfflineResult): string {
  if (result.ignored) return `${result.source} payload: nothing to do (${result.ignored}).\n`;
  const lines = [`${result.source} payload: ${result.alerts.length} alert(s).`];
  for (const { event, routing } of result.alerts) {
    lines.push('', `${event.status} ${event.incidentKey}: ${event.title}`);
    if (!routing.routed) {
      lines.push('  no route matches: nothing would be stored or posted.');
      continue;
    }
    lines.push(`  route ${routing.routed.route} -> Slack channel ${routing.routed.channel}`);
    for (const check of routing.routed.checks) lines.push(`  would check: ${check.connector} ${check.id}`);
    if (routing.routed.checks.length === 0 && routing.refused.length === 0)
      lines.push('  no ids to check (the route names none).');
    for (const refused of routing.refused) lines.push(`  left out: ${refused.connector}: ${refused.reason}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `memdoctor alerts test`: offline, what a payload would route to and which ids it yields. */
export function alertsCommand(deps: AlertsCommandDeps) {
  return {
    async run(args: readonly string[], io: CommandIo): Promise<number> {
      const { file, source } = argsOf(args);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        throw new UsageError(
          `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}).`,
        );
      }
      const config = deps.config();
      try {
        const result = tryPayload(text, config, deps.idCheck(), source ? { source } : {});
        io.stdout.write(offlineText(result));
        return 0;
      } catch (error) {
        if (error instanceof PayloadInvalidError) throw new UsageError(`${file}: ${error.message}`);
        throw error;
      }
    },
  };
}
