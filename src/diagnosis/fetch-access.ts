import type { Logger } from 'pino';
import type { AccessRule, AccessRules, ConnectorName, ConnectorsConfig } from '../connectors/config.ts';
import { FetchRefusedError } from '../errors.ts';
import { DEFAULT_FETCH_LIMITS, FetchLimiter, type FetchLimits, type FetchSlots } from './fetch-limits.ts';

/** Who asks for a fetch, from where: the same for a slash command, a Fetch button, a form, an alert. */
export interface Asker {
  /** The surface it came through, for the audit log. */
  surface: 'slack' | 'cli' | 'console' | 'alert' | 'mcp';
  workspace: string;
  /** A Slack member id; in a terminal, the local user. */
  user: string;
  /** The Slack channel it was asked in; none in a terminal. */
  channel?: string;
  /** Whether the asker is in a Slack user group (usergroups.users.list); Slack only. */
  inGroup?: (group: string) => Promise<boolean>;
}

/** Whom a fetch counts against, as the Slack app counts a person: a workspace and a user in it. */
export interface FetchPerson {
  workspace: string;
  user: string;
}

/**
 * Who sees the answer and its evidence: everyone in the channel it was asked in, or only the asker
 * (Slack: ephemeral; a terminal is its asker's).
 */
export type Audience = 'channel' | 'asker';

/** A fetch let through: who sees it, and the call that ends it in the audit log and frees its place. */
export interface Admission {
  audience: Audience;
  done(outcome: { paths: readonly string[]; failed?: string }): void;
}

/** What is fetched, for the audit log and the messages: the connector and the ids typed or known. */
export interface FetchWanted {
  connector: ConnectorName;
  ids?: Readonly<Record<string, string>>;
  /** `check` (a slash command or the CLI) or `step` (a walkthrough's Fetch). */
  kind: 'check' | 'step';
  /**
   * The answer is recorded where everyone in the channel sees it (a walkthrough's thread): only an
   * audience of the channel may fetch it; an answer for the asker only is refused.
   */
  sharedPlace?: boolean;
}

/** Slack's rule for the connector: a refusal, or who sees the answer. */
async function ruleAllows(rule: AccessRule, asker: Asker, connector: ConnectorName): Promise<Audience> {
  const key = `connectors.yaml access.${connector}`;
  if (rule.channels && !rule.channels.includes(asker.channel ?? ''))
    throw new FetchRefusedError(
      `Fetching from ${connector} is allowed only in the channels ${rule.channels.join(', ')} (${key}.channels); ask there, or paste the output here.`,
    );
  if (rule.users || rule.userGroups) {
    const named = rule.users?.includes(asker.user) ?? false;
    const grouped = named ? true : await inAnyGroup(rule.userGroups ?? [], asker);
    if (!grouped)
      throw new FetchRefusedError(
        `You are not among the people who may fetch from ${connector} (${key}.users and .userGroups); ask one of them, or paste the output.`,
      );
  }
  return rule.showIn.includes(asker.channel ?? '') ? 'channel' : 'asker';
}

/** An alert has nobody to show an answer to alone: it posts only where the rule shows answers. */
function alertAudience(rule: AccessRule | undefined, asker: Asker, connector: ConnectorName): Audience {
  if (rule?.showIn.includes(asker.channel ?? '')) return 'channel';
  throw new FetchRefusedError(
    `An alert may post answers fetched from ${connector} only in a channel listed under connectors.yaml access.${connector}.showIn.`,
  );
}

async function inAnyGroup(groups: readonly string[], asker: Asker): Promise<boolean> {
  for (const group of groups) if (await asker.inGroup?.(group)) return true;
  return false;
}

/**
 * The one check every fetch passes before any request, whichever surface asks: the operator's
 * access rule for the connector (who, in which channel, and who sees the answer), then the per
 * person and total caps. Every decision and every finished fetch is one audit line in the log.
 */
export class FetchGate {
  private readonly slots: FetchSlots;

  /** `limits`: the caps counted in this process; or the places counted elsewhere (Redis, across replicas). */
  constructor(
    private readonly rules: AccessRules | undefined,
    private readonly log?: Logger,
    limits: FetchLimits | FetchSlots = DEFAULT_FETCH_LIMITS,
    now?: () => number,
  ) {
    this.slots = 'take' in limits ? limits : new FetchLimiter(limits, now);
  }

  /** Lets the fetch through with who may see it, or throws FetchRefusedError saying why not and what to do. */
  async admit(wanted: FetchWanted, asker: Asker): Promise<Admission> {
    const entry = this.auditEntry(wanted, asker);
    try {
      const audience = await this.audienceFor(wanted.connector, asker);
      if (wanted.sharedPlace && audience === 'asker')
        throw new FetchRefusedError(
          `Answers fetched from ${wanted.connector} are shown only to the person who asked, and this walkthrough's thread is seen by the whole channel: paste the output yourself, run the walkthrough in a DM with memdoctor, or ask whoever runs memdoctor to list this channel under access.${wanted.connector}.showIn in connectors.yaml.`,
        );
      const place = await this.slots.take(`${asker.workspace}:${asker.user}`);
      if ('refused' in place) throw new FetchRefusedError(place.refused);
      this.log?.info({ ...entry, audience, outcome: 'allowed' }, 'fetch allowed');
      return {
        audience,
        done: (outcome) => {
          place.release();
          this.log?.info(
            { ...entry, audience, outcome: outcome.failed ? 'failed' : 'fetched', paths: outcome.paths },
            'fetch done',
          );
        },
      };
    } catch (error) {
      if (error instanceof FetchRefusedError)
        this.log?.info({ ...entry, outcome: 'refused', reason: error.message }, 'fetch refused');
      throw error;
    }
  }

  private async audienceFor(connector: ConnectorName, asker: Asker): Promise<Audience> {
    const rule = this.rules?.[connector];
    if (asker.surface === 'alert') return alertAudience(rule, asker, connector);
    // A terminal's user holds connectors.yaml and its credentials already: the rules name Slack people.
    if (asker.surface !== 'slack') return 'asker';
    return rule ? ruleAllows(rule, asker, connector) : 'asker';
  }

  private auditEntry(wanted: FetchWanted, asker: Asker) {
    return {
      audit: 'fetch',
      kind: wanted.kind,
      connector: wanted.connector,
      ...(wanted.ids ? { ids: wanted.ids } : {}),
      surface: asker.surface,
      workspace: asker.workspace,
      user: asker.user,
      ...(asker.channel ? { channel: asker.channel } : {}),
    };
  }
}

/** A terminal's connectors (`check`, the console's and `walk`'s Fetch, `mcp`'s check) and their gate. */
export interface TerminalFetching {
  connectors: ConnectorsConfig;
  gate: FetchGate;
  /** Whom these fetches count against (MEMDOCTOR_FETCH_AS, else the OS user): the asker's workspace and user. */
  person: FetchPerson;
  /** Why the caps are counted in this process alone although a Redis is configured, when it is. */
  note?: string;
  /** Waits for the places given back to reach Redis, then lets go of the connection. */
  close(): Promise<void>;
}
