import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ErrorCode, MemdoctorError } from '../errors.ts';
import { packagePath } from '../paths.ts';

/** A prompt file: its text (version line removed) and the version it declares. */
export interface Prompt {
  name: PromptName;
  version: string;
  text: string;
}

export const PROMPT_NAMES = ['triage', 'explain', 'incident'] as const;
export type PromptName = (typeof PROMPT_NAMES)[number];

const VERSION_LINE = /^<!--\s*version:\s*(\S+)\s*-->\s*\n/;
// From the package root, not this module's URL: the bundle in dist/ has no prompts/ beside it.
const PROMPTS_DIR = pathToFileURL(`${packagePath('src', 'llm', 'prompts')}/`);
const cache = new Map<PromptName, Prompt>();

/**
 * Loads `src/llm/prompts/<name>.md` at run time (once). The first line must declare a version;
 * the version goes into the cache key, so a changed prompt never reuses answers to the old one.
 */
export function loadPrompt(name: PromptName, dir: URL = PROMPTS_DIR): Prompt {
  const cached = dir === PROMPTS_DIR ? cache.get(name) : undefined;
  if (cached) return cached;
  const file = fileURLToPath(new URL(`${name}.md`, dir));
  const raw = readFileSync(file, 'utf8');
  const match = VERSION_LINE.exec(raw);
  const version = z.string().min(1).safeParse(match?.[1]);
  if (!match || !version.success)
    throw new MemdoctorError(
      ErrorCode.Internal,
      `${file}: the first line must be "<!-- version: N -->"; add it and bump N on every change.`,
    );
  const prompt: Prompt = { name, version: version.data, text: raw.slice(match[0].length).trim() };
  if (dir === PROMPTS_DIR) cache.set(name, prompt);
  return prompt;
}
