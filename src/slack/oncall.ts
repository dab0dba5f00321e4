import type { WebClient } from '@slack/web-api';

/** How long a user group's member list is trusted before asking Slack again. */
export const GROUP_CACHE_MS = 60_000;

/**
 * Who may answer a walkthrough step: its owner, the on-call users (MEMDOCTOR_ONCALL_USERS) and the
 * members of the on-call user group (MEMDOCTOR_ONCALL_GROUP, read with usergroups.users.list).
 * The group list is cached briefly: a click should not cost a Web API call each time. A walkthrough
 * the bot owns was started by an alert in the channel its route names: whoever can see that thread
 * is whom the operator sent it to, so anyone in it may answer (with no on-call set, no one could).
 */
export class OncallPolicy {
  private cached?: { members: Set<string>; until: number };
  private botUser?: Promise<string | undefined>;

  constructor(
    private readonly users: readonly string[],
    private readonly group: string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when `user` may answer a step of a walkthrough owned by `owner`. */
  async mayAnswer(client: WebClient, user: string, owner: string): Promise<boolean> {
    if (user === owner || this.users.includes(user)) return true;
    if (owner === (await this.botUserOf(client))) return true;
    if (!this.group) return false;
    return (await this.groupMembers(client, this.group)).has(user);
  }

  /** The bot's own user id, asked once (auth.test); a failed ask is asked again next time. */
  private botUserOf(client: WebClient): Promise<string | undefined> {
    this.botUser ??= client.auth.test().then(
      (who) => who.user_id,
      () => {
        this.botUser = undefined;
        return undefined;
      },
    );
    return this.botUser;
  }

  private async groupMembers(client: WebClient, group: string): Promise<Set<string>> {
    if (this.cached && this.cached.until > this.now()) return this.cached.members;
    const reply = await client.usergroups.users.list({ usergroup: group });
    const members = new Set(reply.users ?? []);
    this.cached = { members, until: this.now() + GROUP_CACHE_MS };
    return members;
  }
}
