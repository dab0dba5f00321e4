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

/** The scope Slack's spec names for a method ("Requires scope: `chat:write`"); upload methods per Slack's docs. */
function scopeOf(method: string): string | undefined {
  if (method.startsWith('files.') && method.endsWith('UploadExternal')) return 'files:write';
  if (method === 'files.getUploadURLExternal') return 'files:write';
  const spec = JSON.parse(readFileSync(`${SPECS_DIR}slack_web_openapi_v2_without_examples.json`, 'utf8')) as {
    paths: Record<string, Record<string, { parameters?: { name: string; description?: string }[] }>>;
  };
  const op = Object.values(spec.paths[`/${method}`] ?? {})[0];
  const token = op?.parameters?.find((p) => p.name === 'token');
  const scope = /Requires scope: `([^`]+)`/.exec(token?.description ?? '')?.[1];
  return scope === 'none' ? undefined : scope;
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
    const needed = new Set<string>(['commands', 'files:read']);
    for (const method of calledMethods()) {
      const scope = scopeOf(method);
      if (scope) needed.add(scope);
    }
    for (const event of manifest.settings.event_subscriptions.bot_events)
      needed.add(EVENT_SCOPES[event] ?? `?${event}`);
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...needed].sort());
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
