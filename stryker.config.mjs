// @ts-check
/**
 * Mutation testing (`npm run mutate`): does each figure the engine prints have a test that fails when
 * the code computing it is changed? See CONTRIBUTING.md ("Mutation testing") for how to read the result.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts', related: true },
  plugins: ['@stryker-mutator/vitest-runner', './scripts/stryker-message-text.mjs'],
  // Error sentences and prose properties are not mutated (see the plugin for exactly which).
  ignorers: ['message-text'],
  // The figures users act on: calculators, derivations, matching, units, the two parsers whose
  // verdicts branch a walkthrough (and their shared maths), the walkthrough machine, the Slack download
  // guards. Other parsers are left out of the default run to keep a full run near half an hour on this
  // machine; run one on demand with `npm run mutate -- --mutate src/engine/parsers/<name>.ts`.
  mutate: [
    'src/engine/match.ts',
    'src/engine/units.ts',
    'src/engine/calculators/**/*.ts',
    'src/engine/derive/**/*.ts',
    'src/engine/parsers/nmt.ts',
    'src/engine/parsers/memory-samples.ts',
    'src/engine/parsers/common.ts',
    'src/walkthrough/machine.ts',
    'src/slack/download.ts',
  ],
  coverageAnalysis: 'perTest',
  // Two cores shared with other work: one test process at a time.
  concurrency: 1,
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  clearTextReporter: { allowColor: false, logTests: false, reportTests: false, reportMutants: false },
  thresholds: { high: 90, low: 85, break: null },
  timeoutMS: 10_000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
