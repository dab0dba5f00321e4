import { CONNECTOR_NAMES } from '../usecases/connector-names.ts';
import { ENGINE_HINTS, type EngineHint } from '../usecases/types.ts';

/** What a `/memdoctor ...` line asks for. */
export type SlashRequest =
  | { kind: 'modal'; engine?: EngineHint }
  | { kind: 'help' }
  | { kind: 'list' }
  | { kind: 'status' }
  | { kind: 'stats' }
  | { kind: 'walk'; playbook: string }
  | { kind: 'calc'; args: string[] }
  | { kind: 'diagnose'; text: string; engine?: EngineHint }
  | { kind: 'private'; text: string }
  | { kind: 'handover'; to?: string; walkthrough?: string; typed: string }
  /** `check flink [<job-id>]`, `check spark|yarn <app-id>`, `check kubernetes <ns>/<pod>`, `check glue <job-name>/<run-id>`; no system when mistyped. */
  | { kind: 'check'; system?: CheckSystem; id?: string };

/** The systems `/memdoctor check` reads, as connectors.yaml names them. */
export const CHECK_SYSTEMS = CONNECTOR_NAMES;
export type CheckSystem = (typeof CHECK_SYSTEMS)[number];
/** The name kubectl users type for Kubernetes. */
const CHECK_ALIASES: Readonly<Record<string, CheckSystem>> = { k8s: 'kubernetes' };

function parseCheck(rest: string): SlashRequest {
  // A Glue job name may hold spaces: everything after "glue" is `<job-name>/<run-id>`.
  const glue = /^glue\s+(\S.*)$/i.exec(rest.trim());
  if (glue) return { kind: 'check', system: 'glue', id: (glue[1] ?? '').trim() };
  const [typed = '', id, ...extra] = rest.split(/\s+/);
  const system = CHECK_ALIASES[typed.toLowerCase()] ?? typed.toLowerCase();
  const known = (CHECK_SYSTEMS as readonly string[]).includes(system);
  if (!known || extra.length > 0) return { kind: 'check' };
  return { kind: 'check', system: system as CheckSystem, ...(id ? { id } : {}) };
}

/** Some Slack clients turn a typed `--` into a dash; flags need it back. */
function undoSmartDash(arg: string): string {
  return arg.replace(/^[\u2014\u2013]/, '--');
}

/** `<@U123>` or `<@U123|name>` (an escaped mention) or a bare member id `U123ABC`. */
const MEMBER = /^(?:<@([UW][A-Z0-9]{2,})(?:\|[^>]*)?>|([UW][A-Z0-9]{2,}))$/;

/** `handover <@user> [walkthrough-id]`: who takes over, and which walkthrough when there are several. */
function parseHandover(rest: string): SlashRequest {
  const [who = '', walkthrough] = rest.split(/\s+/);
  const match = MEMBER.exec(who);
  const to = match?.[1] ?? match?.[2];
  return { kind: 'handover', typed: who, ...(to ? { to } : {}), ...(walkthrough ? { walkthrough } : {}) };
}

/** Verbs that take nothing after them. */
const BARE_VERBS = ['help', 'list', 'status', 'stats'] as const;

function isBareVerb(word: string): word is (typeof BARE_VERBS)[number] {
  return (BARE_VERBS as readonly string[]).includes(word);
}

function isEngine(word: string): word is EngineHint {
  return (ENGINE_HINTS as readonly string[]).includes(word);
}

/**
 * Reads the text after `/memdoctor`. A known verb as the whole first word selects it; an engine
 * name as the first word is a hint for the paste after it; anything else is a paste to diagnose.
 */
export function parseSlashText(raw: string): SlashRequest {
  const text = raw.trim();
  if (text === '') return { kind: 'modal' };
  const match = /^(\S+)(?:\s+([\s\S]*))?$/.exec(text);
  const first = (match?.[1] ?? '').toLowerCase();
  const rest = (match?.[2] ?? '').trim();
  if (rest === '' && isBareVerb(first)) return { kind: first };
  if (first === 'private' && rest !== '') return { kind: 'private', text: rest };
  if (first === 'handover') return parseHandover(rest);
  if (first === 'check') return parseCheck(rest);
  if (first === 'walk' && /^[a-z][a-z0-9-]*$/.test(rest)) return { kind: 'walk', playbook: rest };
  if (first === 'calc')
    return { kind: 'calc', args: rest === '' ? [] : rest.split(/\s+/).map(undoSmartDash) };
  if (isEngine(first))
    return rest === '' ? { kind: 'modal', engine: first } : { kind: 'diagnose', text: rest, engine: first };
  return { kind: 'diagnose', text };
}
