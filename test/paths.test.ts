import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packagePath, packageRoot } from '../src/paths.ts';

describe('packageRoot', () => {
  it('is the folder of memdoctor’s package.json, so src/ and dist/ find the same assets', () => {
    expect(`${packageRoot()}/`).toBe(fileURLToPath(new URL('..', import.meta.url)));
  });

  it('holds every asset read at run time, each listed in package.json "files"', async () => {
    const { files } = (await import('../package.json', { with: { type: 'json' } })).default as {
      files: string[];
    };
    for (const asset of ['src/redis/lua', 'src/llm/prompts', 'playbooks']) {
      expect(readdirSync(packagePath(asset)).length).toBeGreaterThan(0);
      expect(files).toContain(`${asset}/`);
    }
    expect(existsSync(packagePath('bin', 'memdoctor.mjs'))).toBe(true);
  });
});
