import type { WebClient } from '@slack/web-api';
import type { Activity } from '../stats/outcomes.ts';
import type { SlackDeps } from './deps.ts';
import type { HomeContent, HomeItem } from './views/home.ts';

/** At most this many lines per list (one permalink lookup each). */
export const HOME_ITEMS = 10;
/** Walkthroughs looked up to find the person's active ones (the recent list holds others' too). */
const WALKTHROUGHS_CHECKED = 50;

async function permalink(client: WebClient, channel: string, ts: string): Promise<string | undefined> {
  const reply = await client.chat.getPermalink({ channel, message_ts: ts }).catch(() => undefined);
  return reply?.permalink;
}

function firstOfEach(activities: readonly Activity[], kind: Activity['kind']): Activity[] {
  const seen = new Set<string>();
  return activities.filter((a) => {
    const key = a.walkthrough ?? `${a.channel}:${a.ts}`;
    if (a.kind !== kind || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Active walkthroughs the person owns now (a hand-over moves them), newest first. */
async function ownWalkthroughs(
  deps: SlackDeps,
  client: WebClient,
  user: string,
  recent: readonly Activity[],
) {
  const items: HomeItem[] = [];
  for (const a of firstOfEach(recent, 'walkthrough').slice(0, WALKTHROUGHS_CHECKED)) {
    if (items.length >= HOME_ITEMS || !a.walkthrough) break;
    const record = await deps.walkthroughs.get(a.walkthrough).catch(() => undefined);
    if (record?.status !== 'active' || record.owner !== user) continue;
    const link = await permalink(client, a.channel, a.ts);
    const step = deps.walkthroughs.view(record)?.title ?? 'not started';
    items.push({ title: a.title, channel: a.channel, detail: `at ${step}`, ...(link ? { link } : {}) });
  }
  return items;
}

/** The public and private channels the person is in (DMs are left out: they are private). */
async function channelsOf(client: WebClient, user: string): Promise<Set<string>> {
  const reply = await client.users.conversations({
    user,
    types: 'public_channel,private_channel',
    exclude_archived: true,
    limit: 200,
  });
  return new Set((reply.channels ?? []).flatMap((c) => (c.id ? [c.id] : [])));
}

async function diagnosesIn(client: WebClient, channels: Set<string>, recent: readonly Activity[]) {
  const shown = firstOfEach(recent, 'diagnosis')
    .filter((a) => channels.has(a.channel))
    .slice(0, HOME_ITEMS);
  return Promise.all(
    shown.map(async (a): Promise<HomeItem> => {
      const link = await permalink(client, a.channel, a.ts);
      const detail = `${a.at.slice(0, 16).replace('T', ' ')} UTC`;
      return { title: a.title, channel: a.channel, detail, askedBy: a.user, ...(link ? { link } : {}) };
    }),
  );
}

/** Everything the person's Home tab shows, read from the outcome store and Slack. */
export async function homeContent(
  deps: SlackDeps,
  client: WebClient,
  workspace: string,
  user: string,
): Promise<HomeContent> {
  if (!deps.outcomes) return { walkthroughs: [], diagnoses: [] };
  const recent = await deps.outcomes.recent(workspace);
  const [walkthroughs, channels, outcomes] = await Promise.all([
    ownWalkthroughs(deps, client, user, recent),
    channelsOf(client, user),
    deps.outcomes.rows(workspace),
  ]);
  return { walkthroughs, diagnoses: await diagnosesIn(client, channels, recent), outcomes };
}
