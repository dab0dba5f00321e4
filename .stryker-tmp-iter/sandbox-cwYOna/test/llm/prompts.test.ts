// @ts-nocheck
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadPrompt, PROMPT_NAMES } from '../../src/llm/prompts.ts';

describe('prompts', () => {
  it.each(PROMPT_NAMES)('%s.md declares a version and has text', (name) => {
    const prompt = loadPrompt(name);
    expect(prompt.version).toMatch(/^\d+$/);
    expect(prompt.text.length).toBeGreaterThan(200);
    expect(prompt.text).not.toContain('version:');
  });

  it('refuses a prompt file without a version line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'memdoctor-prompts-'));
    writeFileSync(join(dir, 'triage.md'), 'Choose a playbook.\n');
    expect(() => loadPrompt('triage', pathToFileURL(`${dir}/`))).toThrow(/version: N/);
  });
});
