import type { WebClient } from '@slack/web-api';
import { type Asker, FetchGate } from '../usecases/connectors.ts';
import type { SlackDeps } from './deps.ts';
import { GROUP_CACHE_MS } from './oncall.ts';

/** The gate built from connectors.yaml's access rules when the app was not handed one (tests). */
const defaults = new WeakMap<SlackDeps, FetchGate>();
/** Each app's cache of user group members: a click should not cost a Web API call each time. */
const groupCaches = new WeakMap<SlackDeps, Map<string, { members: Set<string>; until: number }>>();

/** The one gate of this app: every check and step fetch in Slack passes it. */
export function gateOf(deps: SlackDeps): FetchGate {
  if (deps.fetchGate) return deps.fetchGate;
  let gate = defaults.get(deps);
  if (!gate) {
    gate = new FetchGate(deps.connectors?.access, deps.log);
    defaults.set(deps, gate);
  }
  return gate;
}

async function groupMembers(deps: SlackDeps, client: WebClient, group: string): Promise<Set<string>> {
  let cache = groupCaches.get(deps);
  if (!cache) {
    cache = new Map();
    groupCaches.set(deps, cache);
  }
  const cached = cache.get(group);
  if (cached && cached.until > Date.now()) return cached.members;
  const reply = await client.usergroups.users.list({ usergroup: group });
  const members = new Set(reply.users ?? []);
  cache.set(group, { members, until: Date.now() + GROUP_CACHE_MS });
  return members;
}

/** The Slack person asking, in a channel; their user groups are read from Slack when a rule names some. */
export function slackAsker(
  deps: SlackDeps,
  client: WebClient,
  where: { workspace: string; user: string; channel: string },
): Asker {
  return {
    surface: 'slack',
    ...where,
    inGroup: async (group) => (await groupMembers(deps, client, group)).has(where.user),
  };
}
