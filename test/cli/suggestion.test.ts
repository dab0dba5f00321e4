import { describe, expect, it } from 'vitest';
import { renderSuggestion } from '../../src/cli/render/suggestion.ts';

const SUGGESTION = {
  playbook: 'spark-executor-overhead-killed',
  confidence: 0.55,
  rationale: 'The container was close to its memory limit when the task failed.',
  evidence: [{ line: 3, text: 'INFO 11.2 GB used' }],
};

describe('renderSuggestion', () => {
  it('labels the block as a model suggestion and offers the walkthrough command', () => {
    const text = renderSuggestion(SUGGESTION);
    expect(text).toContain("A model's suggestion");
    expect(text).toContain('Playbook: spark-executor-overhead-killed  [model confidence 55%]');
    expect(text).toContain('  line 3: INFO 11.2 GB used');
    expect(text).toContain('Walk through it: memdoctor walk spark-executor-overhead-killed');
  });

  it('leaves the command out where the console says it its own way', () => {
    const text = renderSuggestion(SUGGESTION, 'none');
    expect(text).toContain('Playbook: spark-executor-overhead-killed');
    expect(text).not.toContain('memdoctor walk');
  });

  it('says when the model found no playbook, without a walkthrough', () => {
    const text = renderSuggestion({
      playbook: 'none',
      confidence: 0.3,
      rationale: 'Not memory.',
      evidence: [],
    });
    expect(text).toContain('found no playbook that fits');
    expect(text).not.toContain('memdoctor walk');
  });

  it('is empty without a suggestion', () => {
    expect(renderSuggestion(undefined)).toBe('');
  });
});
