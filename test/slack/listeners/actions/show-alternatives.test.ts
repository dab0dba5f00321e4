import { describe, expect, it } from 'vitest';
import { click, threadReplies } from '../../support/clicks.ts';
import { diagnoseInChannel, harnessPerTest, waitFor } from '../../support/harness.ts';

const harness = harnessPerTest();

describe('actions/show-alternatives', () => {
  it('posts the other ranked candidates in the diagnosis thread, each with its walkthrough button', async () => {
    const h = harness();
    const root = await diagnoseInChannel(
      h,
      'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n',
      'UALICE01',
      'CALTS01',
    );
    await click(h, root, 'Show alternatives', 'UALICE01');
    const posted = await waitFor(() => threadReplies(h, 'CALTS01', root.ts)[0]);
    expect(posted.text).toBe('Other possibilities');
    expect(JSON.stringify(posted.blocks)).toContain('Walk through test-gc-pressure');
  });
});
