/** Builders for the payloads of the on-call surfaces, in Slack's documented formats. */
import { messageTs, TEAM } from './payloads.ts';

let seq = 0;

/**
 * A message shortcut (`message_action`) as Slack sends it to the interactivity URL: the whole
 * message it was used on, the channel, the user, a trigger_id and a response_url.
 */
export function messageShortcut(opts: {
  callbackId: string;
  user: string;
  channel: string;
  message: Record<string, unknown>;
  responseUrl: string;
}) {
  seq += 1;
  return {
    type: 'message_action',
    token: 'legacy-verification-token',
    action_ts: `${Date.now() / 1000}`,
    team: { id: TEAM, domain: 'testteam' },
    user: { id: opts.user, name: opts.user.toLowerCase(), username: opts.user.toLowerCase(), team_id: TEAM },
    channel: { id: opts.channel, name: 'alerts' },
    is_enterprise_install: false,
    enterprise: null,
    callback_id: opts.callbackId,
    trigger_id: `${seq}.2.shortcut`,
    response_url: opts.responseUrl,
    message_ts: opts.message.ts,
    message: { type: 'message', ...opts.message },
  };
}

/** An alert bot's post: no user, a bot_id, the error in an attachment (as monitoring bots post). */
export function botAlertMessage(text: string) {
  return {
    subtype: 'bot_message',
    bot_id: 'B0ALERTS',
    username: 'spark-alerts',
    text: '',
    ts: messageTs(),
    attachments: [{ id: 1, color: 'danger', fallback: 'Job failed', title: 'Job nightly-etl failed', text }],
  };
}

/** A `message` event in a DM with the bot (channel_type `im`), optionally with files. */
export function directMessageEvent(opts: {
  user: string;
  channel: string;
  text: string;
  files?: Record<string, unknown>[];
  threadTs?: string;
}) {
  return {
    type: 'message',
    ...(opts.files ? { subtype: 'file_share', upload: false, display_as_bot: false } : {}),
    text: opts.text,
    user: opts.user,
    ts: messageTs(),
    ...(opts.threadTs ? { thread_ts: opts.threadTs, parent_user_id: 'UBOT0001' } : {}),
    channel: opts.channel,
    channel_type: 'im',
    ...(opts.files
      ? {
          files: opts.files.map((f) => ({
            mimetype: 'text/plain',
            filetype: 'text',
            url_private: f.url_private_download,
            ...f,
          })),
        }
      : {}),
  };
}

/** `app_home_opened`: the user opened the app's Home tab. */
export function appHomeOpened(user: string) {
  return {
    type: 'app_home_opened',
    user,
    channel: 'D0HOME01',
    tab: 'home',
    event_ts: `${Date.now() / 1000}`,
  };
}

/**
 * A click on a button of an ephemeral message: Slack sends the container (is_ephemeral) but not the
 * message itself, since the app cannot read or update it.
 */
export function blockActionsFromEphemeral(opts: {
  user: string;
  channel: string;
  action: { action_id: string; block_id: string; value: string };
  responseUrl: string;
}) {
  seq += 1;
  return {
    type: 'block_actions',
    user: { id: opts.user, username: opts.user.toLowerCase(), name: opts.user.toLowerCase(), team_id: TEAM },
    api_app_id: 'A1',
    token: 'legacy-verification-token',
    container: { type: 'message', message_ts: messageTs(), channel_id: opts.channel, is_ephemeral: true },
    trigger_id: `${seq}.3.ephemeral`,
    team: { id: TEAM, domain: 'testteam' },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: opts.channel, name: 'incidents' },
    state: { values: {} },
    response_url: opts.responseUrl,
    actions: [
      {
        ...opts.action,
        type: 'button',
        action_ts: `${Date.now() / 1000}`,
        text: { type: 'plain_text', text: 'Start walkthrough in a DM' },
      },
    ],
  };
}
