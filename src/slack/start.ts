import type { Config } from '../config.ts';
import { ConfigInvalidError } from '../errors.ts';

/** Starts the Slack bot. */
export async function startSlack(_config: Config): Promise<void> {
  throw new ConfigInvalidError(
    'the Slack app is not part of this build yet; unset SLACK_BOT_TOKEN to use the console.',
  );
}
