import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { explainFailure } from '../../failures.ts';
import { homeContent } from '../../home.ts';
import { homeView } from '../../views/home.ts';

type Args = SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs;

/** The Home tab opened: publish the person's view (the Messages tab needs nothing). */
export function appHomeOpened(deps: SlackDeps) {
  return async ({ event, client, context }: Args): Promise<void> => {
    if (event.tab !== 'home' || !context.teamId) return;
    try {
      const content = await homeContent(deps, client, context.teamId, event.user);
      await client.views.publish({ user_id: event.user, view: homeView(content) });
    } catch (error) {
      deps.log.warn({ user: event.user, err: explainFailure(error).message }, 'home tab not published');
    }
  };
}
