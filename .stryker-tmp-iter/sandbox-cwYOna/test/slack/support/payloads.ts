/** Builders for Slack's documented payload formats, with the fields Slack sends. */
// @ts-nocheck


export const TEAM = 'T1';
export const APP = 'A1';

let seq = 0;
function next(): number {
  seq += 1;
  return seq;
}

export function slashCommand(
  text: string,
  opts: { user: string; channel: string; responseUrl: string },
): Record<string, string> {
  return {
    token: 'legacy-verification-token',
    team_id: TEAM,
    team_domain: 'testteam',
    channel_id: opts.channel,
    channel_name: 'incidents',
    user_id: opts.user,
    user_name: opts.user.toLowerCase(),
    command: '/memdoctor',
    text,
    api_app_id: APP,
    is_enterprise_install: 'false',
    response_url: opts.responseUrl,
    trigger_id: `${next()}.1.abcdef`,
  };
}

export function eventEnvelope(event: Record<string, unknown>, eventId = `Ev${next()}`) {
  return {
    token: 'legacy-verification-token',
    team_id: TEAM,
    api_app_id: APP,
    event: { event_ts: event.ts, ...event },
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      { enterprise_id: null, team_id: TEAM, user_id: 'UBOT0001', is_bot: true, is_enterprise_install: false },
    ],
    is_ext_shared_channel: false,
  };
}

export function messageTs(): string {
  return `1700001000.${String(next()).padStart(6, '0')}`;
}

export function fileShareEvent(opts: {
  user: string;
  channel: string;
  threadTs: string;
  parentUserId: string;
  files: Record<string, unknown>[];
  text?: string;
}) {
  return {
    type: 'message',
    subtype: 'file_share',
    text: opts.text ?? '',
    user: opts.user,
    ts: messageTs(),
    thread_ts: opts.threadTs,
    parent_user_id: opts.parentUserId,
    channel: opts.channel,
    channel_type: 'channel',
    files: opts.files.map((f) => ({
      mimetype: 'text/plain',
      filetype: 'text',
      url_private: f.url_private_download,
      ...f,
    })),
    upload: false,
    display_as_bot: false,
  };
}

export function threadReply(opts: {
  user: string;
  channel: string;
  threadTs: string;
  parentUserId: string;
  text: string;
}) {
  return {
    type: 'message',
    text: opts.text,
    user: opts.user,
    ts: messageTs(),
    thread_ts: opts.threadTs,
    parent_user_id: opts.parentUserId,
    channel: opts.channel,
    channel_type: 'channel',
  };
}

/** A block_actions payload for a click on `action` in the bot message `message`. */
export function blockActions(opts: {
  user: string;
  channel: string;
  message: { ts: string; thread_ts?: string; blocks: unknown[]; text?: string };
  action: { action_id: string; block_id: string; value: string; text?: string };
  responseUrl: string;
  stateValues?: Record<string, unknown>;
}) {
  return {
    type: 'block_actions',
    user: { id: opts.user, username: opts.user.toLowerCase(), name: opts.user.toLowerCase(), team_id: TEAM },
    api_app_id: APP,
    token: 'legacy-verification-token',
    container: {
      type: 'message',
      message_ts: opts.message.ts,
      channel_id: opts.channel,
      is_ephemeral: false,
    },
    trigger_id: `${next()}.1.abcdef`,
    team: { id: TEAM, domain: 'testteam' },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: opts.channel, name: 'incidents' },
    message: { type: 'message', user: 'UBOT0001', bot_id: 'B1', ...opts.message },
    state: { values: opts.stateValues ?? {} },
    response_url: opts.responseUrl,
    actions: [
      {
        ...opts.action,
        type: 'button',
        action_ts: `${Date.now() / 1000}`,
        text: { type: 'plain_text', text: 'x' },
      },
    ],
  };
}

export function viewSubmission(opts: {
  user: string;
  callbackId: string;
  privateMetadata: string;
  values: Record<string, unknown>;
}) {
  return {
    type: 'view_submission',
    team: { id: TEAM, domain: 'testteam' },
    user: { id: opts.user, username: opts.user.toLowerCase(), name: opts.user.toLowerCase(), team_id: TEAM },
    api_app_id: APP,
    token: 'legacy-verification-token',
    trigger_id: `${next()}.1.abcdef`,
    view: {
      id: `V${next()}`,
      team_id: TEAM,
      type: 'modal',
      callback_id: opts.callbackId,
      private_metadata: opts.privateMetadata,
      state: { values: opts.values },
      hash: 'abc',
      title: { type: 'plain_text', text: 'memdoctor' },
      blocks: [],
      app_id: APP,
      bot_id: 'B1',
    },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
}
