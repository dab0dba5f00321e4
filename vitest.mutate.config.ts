import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * The tests Stryker runs against each mutant: the unit suites of the mutated code, in-process, so the
 * score says what those suites pin. A mutant of a module-level constant (a regex, a table) is "static":
 * Stryker must run every related test for it, so each suite added here costs every static mutant.
 * End-to-end suites (diagnose, playbook fixtures, CLI, Slack) are left out: they reach the same code
 * through the whole engine, and the CLI ones spawn a child that runs unmutated code anyway.
 * (Not mergeConfig: it would append these globs to the base `include` instead of replacing it.)
 */
export default defineConfig({
  test: {
    ...base.test,
    include: [
      'test/engine/calculators/**/*.test.ts',
      'test/engine/parsers/**/*.test.ts',
      'test/engine/derive/**/*.test.ts',
      'test/engine/match.test.ts',
      'test/engine/units.test.ts',
      'test/walkthrough/*.test.ts',
      'test/slack/download*.test.ts',
    ],
    // The live-JDK suite starts a JVM per run: it checks the parsers against the real tools, and its
    // captured output is pinned in captured.test.ts, which does run here.
    exclude: ['test/engine/parsers/live-jdk.test.ts'],
    coverage: { enabled: false },
  },
});
