import type { App } from '@slack/bolt';
import type { SlackDeps } from '../deps.ts';
import {
  ACTION,
  FEEDBACK_ANSWER_PATTERN,
  FEEDBACK_IDS,
  PRIVATE_IDS,
  SHORTCUT,
  STEP_ANSWER_PATTERN,
  VIEW,
} from '../ids.ts';
import { explainDiagnosis } from './actions/explain-diagnosis.ts';
import { feedbackGivenAction, feedbackNoteAction } from './actions/feedback-given.ts';
import { fetchIdsAsked } from './actions/fetch-ids.ts';
import { stepFetched } from './actions/fetch-step.ts';
import { notMemory } from './actions/not-memory.ts';
import { showAlternatives } from './actions/show-alternatives.ts';
import { startInDm } from './actions/start-in-dm.ts';
import { startWalkthrough } from './actions/start-walkthrough.ts';
import { stepAnswered } from './actions/step-answer.ts';
import { memdoctorCommand } from './commands/memdoctor.ts';
import { appHomeOpened } from './events/app-home-opened.ts';
import { appMention } from './events/app-mention.ts';
import { directMessage } from './events/direct-message.ts';
import { fileShared } from './events/file-shared.ts';
import { threadReply } from './events/thread-reply.ts';
import { diagnoseMessageShortcut } from './shortcuts/diagnose-message.ts';
import { feedbackNoteSubmitted } from './views/feedback-note-submitted.ts';
import { fetchIdsSubmitted } from './views/fetch-ids-submitted.ts';
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
  app.action(ACTION.fetchStep, stepFetched(deps));
  app.action(ACTION.fetchStepIds, fetchIdsAsked(deps));
  app.view(VIEW.fetchIds, fetchIdsSubmitted(deps));
  app.event('message', fileShared(deps));
  app.event('message', threadReply(deps));
  app.event('app_mention', appMention(deps));
  app.shortcut(
    { callback_id: SHORTCUT.diagnoseMessage, type: 'message_action' },
    diagnoseMessageShortcut(deps),
  );
  app.event('message', directMessage(deps));
  app.action(FEEDBACK_ANSWER_PATTERN, feedbackGivenAction(deps));
  app.action(FEEDBACK_IDS.note, feedbackNoteAction(deps));
  app.view(FEEDBACK_IDS.noteView, feedbackNoteSubmitted(deps));
  app.action(PRIVATE_IDS.startInDm, startInDm(deps));
  app.event('app_home_opened', appHomeOpened(deps));
}
