import { click, threadReplies } from './clicks.ts';
import type { StoredMessage } from './fake-slack.ts';
import { diagnoseInChannel, type Harness, waitFor } from './harness.ts';

const HEAP_OOM = 'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n';

/**
 * A real "Did this fix it?" prompt: `/memdoctor` on a heap OOM by `user`, its walkthrough started, then the test procedure
 * walked Done -> "No" to its "more memory" conclusion. Feedback is only taken for a walkthrough that
 * exists and ended at that conclusion (issue 27), so listener tests start from one.
 */
export async function concludedPrompt(h: Harness, channel: string, user: string): Promise<StoredMessage> {
  const root = await diagnoseInChannel(h, HEAP_OOM, user, channel);
  await click(h, root, 'Start walkthrough', user);
  const step = (n: number) =>
    waitFor(() => threadReplies(h, channel, root.ts).findLast((m) => m.text?.startsWith(`Step ${n}`)));
  await click(h, await step(1), 'Done', user);
  await click(h, await step(2), 'No', user);
  return waitFor(() => threadReplies(h, channel, root.ts).find((m) => m.text === 'Did this fix it?'));
}
