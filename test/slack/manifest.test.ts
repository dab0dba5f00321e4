import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SHORTCUT } from '../../src/slack/ids.ts';
import { SPECS_DIR } from './support/slack-spec.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Manifest {
  features: {
    slash_commands: { command: string }[];
    shortcuts: { type: string; callback_id: string }[];
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: { event_subscriptions: { bot_events: string[] }; interactivity: { is_enabled: boolean } };
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [readFileSync(join(dir, e.name), 'utf8')]
        : [],
  );
}

/** Web API methods the Slack layer calls, read from its source: `client.chat.postMessage(` -> chat.postMessage. */
function calledMethods(): Set<string> {
  const methods = new Set<string>();
  for (const text of sources(join(ROOT, 'src/slack')))
    for (const m of text.matchAll(/client\.((?:[a-z]+\.)+[a-zA-Z]+)\(/g)) methods.add(m[1] ?? '');
  return methods;
}

/**
 * Scopes that allow a method, from Slack's spec: the token's "Requires scope" text plus the
 * operation's security list (conversations.* name a family, e.g. channels:history or groups:history).
 * The two upload methods postdate the spec; Slack documents files:write for them.
 */
function scopesOf(method: string): string[] {
  if (method === 'files.getUploadURLExternal' || method === 'files.completeUploadExternal')
    return ['files:write'];
  const spec = JSON.parse(readFileSync(`${SPECS_DIR}slack_web_openapi_v2_without_examples.json`, 'utf8')) as {
    paths: Record<
      string,
      Record<
        string,
        { parameters?: { name: string; description?: string }[]; security?: Record<string, string[]>[] }
      >
    >;
  };
  const op = Object.values(spec.paths[`/${method}`] ?? {})[0];
  if (!op) throw new Error(`the code calls ${method}, which Slack's spec does not have`);
  const token = op.parameters?.find((p) => p.name === 'token');
  const described = /Requires scope: `([^`]+)`/.exec(token?.description ?? '')?.[1];
  const listed = (op.security ?? []).flatMap((s) => Object.values(s).flat());
  return [...new Set([described, ...listed])].filter((s): s is string => !!s && s !== 'none');
}

/**
 * Where the 2020 catalogue is silent, Slack's event pages: app_mention (listed there without a
 * scope) needs app_mentions:read; app_home_opened (not in it) needs none.
 */
const NOT_IN_CATALOGUE: Readonly<Record<string, string[]>> = {
  app_mention: ['app_mentions:read'],
  app_home_opened: [],
};

/** The scopes an event needs, from Slack's events catalogue (`x-scopes-required`; `app.mention` there). */
function eventScopes(event: string): string[] {
  const known = NOT_IN_CATALOGUE[event];
  if (known) return known;
  const catalogue = JSON.parse(readFileSync(`${SPECS_DIR}slack_events_api_async_v1.json`, 'utf8')) as {
    topics: Record<string, { subscribe?: { 'x-scopes-required'?: string[] } }>;
  };
  const topic = catalogue.topics[event] ?? catalogue.topics[event.replace(/_/g, '.')];
  if (!topic) throw new Error(`the manifest subscribes to ${event}, which Slack's catalogue does not have`);
  return topic.subscribe?.['x-scopes-required'] ?? [];
}

describe('manifest.yaml', () => {
  const manifest = parse(readFileSync(join(ROOT, 'manifest.yaml'), 'utf8')) as Manifest;

  it('declares exactly the scopes the code uses', () => {
    const declared = new Set(manifest.oauth_config.scopes.bot);
    const used = new Set<string>(['commands', 'files:read']);
    for (const method of calledMethods()) {
      const allowed = scopesOf(method);
      if (allowed.length === 0) continue;
      const granted = allowed.filter((s) => declared.has(s));
      expect(granted, `${method} needs one of ${allowed.join(', ')}`).not.toEqual([]);
      for (const s of granted) used.add(s);
    }
    for (const event of manifest.settings.event_subscriptions.bot_events) {
      const needed = eventScopes(event);
      // Some events take one of several scopes (user or bot); the bot's is the one declared.
      const granted = needed.filter((s) => declared.has(s));
      if (needed.length > 0) expect(granted, `${event} needs one of ${needed.join(', ')}`).not.toEqual([]);
      for (const s of granted) used.add(s);
    }
    expect([...declared].sort()).toEqual([...used].sort());
  });

  it('declares the slash command, the events the listeners handle and interactivity', () => {
    expect(manifest.features.slash_commands.map((c) => c.command)).toEqual(['/memdoctor']);
    expect(manifest.settings.event_subscriptions.bot_events).toEqual([
      'app_home_opened',
      'app_mention',
      'message.channels',
      'message.groups',
      'message.im',
    ]);
    expect(manifest.features.shortcuts).toEqual([
      expect.objectContaining({ type: 'message', callback_id: SHORTCUT.diagnoseMessage }),
    ]);
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
  });

  it('finds the Web API calls it checks', () => {
    expect(calledMethods()).toContain('chat.postMessage');
  });
});
