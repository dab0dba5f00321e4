import { describe, expect, it } from 'vitest';
import { CONSOLE_STEP_BODIES } from '../../src/cli/console/step-kinds.ts';
import { SLACK_STEP_BLOCKS } from '../../src/slack/views/step-kinds.ts';
import { STEP_KINDS } from '../../src/walkthrough/index.ts';

describe('step kinds and their views', () => {
  const kinds = Object.keys(STEP_KINDS).sort();

  it('gives every kind a terminal view and a Slack view, and no view to a kind that does not exist', () => {
    expect(Object.keys(CONSOLE_STEP_BODIES).sort()).toEqual(kinds);
    expect(Object.keys(SLACK_STEP_BLOCKS).sort()).toEqual(kinds);
    for (const kind of kinds) {
      expect(typeof CONSOLE_STEP_BODIES[kind as keyof typeof STEP_KINDS]).toBe('function');
      expect(typeof SLACK_STEP_BLOCKS[kind as keyof typeof STEP_KINDS]).toBe('function');
    }
  });
});
