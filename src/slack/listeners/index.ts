import type { App } from '@slack/bolt';
import type { SlackDeps } from '../deps.ts';
import { ACTION, VIEW } from '../ids.ts';
import { notMemory } from './actions/not-memory.ts';
import { showAlternatives } from './actions/show-alternatives.ts';
import { memdoctorCommand } from './commands/memdoctor.ts';
import { appMention } from './events/app-mention.ts';
import { fileShared } from './events/file-shared.ts';
import { pasteSubmitted } from './views/paste-submitted.ts';

/** Every listener, registered in one place so the app's surface can be read at a glance. */
export function registerListeners(app: App, deps: SlackDeps): void {
  app.command('/memdoctor', memdoctorCommand(deps));
  app.view(VIEW.paste, pasteSubmitted(deps));
  app.action(ACTION.showAlternatives, showAlternatives(deps));
  app.action(ACTION.notMemory, notMemory(deps));
  app.event('message', fileShared(deps));
  app.event('app_mention', appMention(deps));
}
