import { z } from 'zod';

// Slack's ids as its Web API gives them: C/G public and private channels, D direct messages,
// U/W members (W on Enterprise Grid), S user groups.
const Channel = z.string().regex(/^[CGD][A-Z0-9]{2,}$/, 'a Slack channel id, such as C012AB3CD (not #name)');
const User = z.string().regex(/^[UW][A-Z0-9]{2,}$/, 'a Slack member id, such as U012AB3CD (not @name)');
const Group = z.string().regex(/^S[A-Z0-9]{2,}$/, 'a Slack user group id, such as S012AB3CD (not @handle)');

/**
 * Who may fetch from one connector in Slack, where, and where the answer may be shown to a channel.
 * A list left out does not restrict; `users` and `userGroups` together are one list of who may ask.
 */
export const AccessRuleSettings = z.strictObject({
  /** Channels a fetch may be asked in; unset: any. */
  channels: z.array(Channel).min(1).optional(),
  /** Members who may ask; unset with userGroups unset: anyone in the workspace. */
  users: z.array(User).min(1).optional(),
  userGroups: z.array(Group).min(1).optional(),
  /** Channels whose members may see the answer and its evidence; elsewhere only the asker sees them. */
  showIn: z.array(Channel).default([]),
});

export type AccessRule = z.infer<typeof AccessRuleSettings>;
