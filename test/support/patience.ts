/**
 * How long a test waits for something before it calls it missing: a listener's work after the ack, a
 * server's answer, a child process's output or exit. Generous on purpose: every wait ends as soon as
 * the thing happens, so only a failing test pays it. A two-worker run on a 2-core machine at load
 * average 16 took 15 s for a start-up (tsx on src/main.ts) that takes 2 s on a quiet one, and failed
 * five tests that waited 15 s or less. Three quarters of the test timeout (vitest.config.ts), so a
 * wait fails with its own message rather than as a timed-out test.
 */
export const PATIENCE_MS = 45_000;
