import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LISTENERS = fileURLToPath(new URL('../../../src/slack/listeners/', import.meta.url));
const TESTS = fileURLToPath(new URL('./', import.meta.url));

/** Every listener file under src/slack/listeners/<kind>/, as `<kind>/<name>`. */
function listenerFiles(): string[] {
  return readdirSync(LISTENERS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(`${LISTENERS}${d.name}`).map((f) => `${d.name}/${f.replace(/\.ts$/, '')}`));
}

describe('listener tests', () => {
  it('has one test file per listener, at the same path under test/slack/listeners', () => {
    const files = listenerFiles();
    expect(files.length).toBeGreaterThanOrEqual(16);
    expect(files.filter((f) => !existsSync(`${TESTS}${f}.test.ts`))).toEqual([]);
  });
});
