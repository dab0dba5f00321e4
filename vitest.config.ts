import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Redis-backed suites each use their own key prefix, so files may run in parallel.
    fileParallelism: true,
    // As `--ci`: a missing snapshot fails instead of being written (vitest 4: update 'none').
    // Write new or changed snapshots on purpose with `npx vitest run -u <file>`.
    update: 'none',
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text-summary'],
      // Measured at 93% lines, 79% branches when set; the floor keeps new code tested.
      thresholds: { lines: 88, functions: 90, branches: 74, statements: 87 },
    },
  },
});
