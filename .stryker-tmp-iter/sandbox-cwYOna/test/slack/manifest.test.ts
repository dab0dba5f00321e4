// @ts-nocheck
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SPECS_DIR } from './support/slack-spec.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Manifest {
  features: { slash_commands: { command: string }[] };
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

/** Scopes that events and features need: Slack's event and scope documentation. */
const EVENT_SCOPES: Record<string, string> = {
  app_mention: 'app_mentions:read',
  'message.channels': 'channels:history',
  'message.groups': 'groups:history',
};

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
    for (const event of manifest.settings.event_subscriptions.bot_events)
      used.add(EVENT_SCOPES[event] ?? `?${event}`);
    expect([...declared].sort()).toEqual([...used].sort());
  });

  it('declares the slash command, the events the listeners handle and interactivity', () => {
    expect(manifest.features.slash_commands.map((c) => c.command)).toEqual(['/memdoctor']);
    expect(manifest.settings.event_subscriptions.bot_events).toEqual([
      'app_mention',
      'message.channels',
      'message.groups',
    ]);
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
  });

  it('finds the Web API calls it checks', () => {
    expect(calledMethods()).toContain('chat.postMessage');
  });
});
