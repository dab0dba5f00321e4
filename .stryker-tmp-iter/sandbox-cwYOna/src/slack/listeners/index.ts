// @ts-nocheck
import type { App } from '@slack/bolt';
import type { SlackDeps } from '../deps.ts';
import { ACTION, STEP_ANSWER_PATTERN, VIEW } from '../ids.ts';
import { explainDiagnosis } from './actions/explain-diagnosis.ts';
import { notMemory } from './actions/not-memory.ts';
import { showAlternatives } from './actions/show-alternatives.ts';
import { startWalkthrough } from './actions/start-walkthrough.ts';
import { stepAnswered } from './actions/step-answer.ts';
import { memdoctorCommand } from './commands/memdoctor.ts';
import { appMention } from './events/app-mention.ts';
import { fileShared } from './events/file-shared.ts';
import { threadReply } from './events/thread-reply.ts';
import { pasteSubmitted } from './views/paste-submitted.ts';

/** The diagnosis' start button and each alternative's (`memdoctor.walk.start:<playbook>`). */
const START_PATTERN = /^memdoctor\.walk\.start(?::|$)/;

/** Every listener, registered in one place so the app's surface can be read at a glance. */
export function registerListeners(app: App, deps: SlackDeps): void {
  app.command('/memdoctor', memdoctorCommand(deps));
  app.view(VIEW.paste, pasteSubmitted(deps));
  app.action(ACTION.showAlternatives, showAlternatives(deps));
  app.action(ACTION.notMemory, notMemory(deps));
  app.action(ACTION.explain, explainDiagnosis(deps));
  app.action(START_PATTERN, startWalkthrough(deps));
  app.action(STEP_ANSWER_PATTERN, stepAnswered(deps));
  app.event('message', fileShared(deps));
  app.event('message', threadReply(deps));
  app.event('app_mention', appMention(deps));
}
