import { setFlagsFromString } from 'node:v8';

/**
 * Keeps this process's young generation at the size V8 starts it with (a 1 MiB semi-space, 2 MiB of
 * new space) instead of letting it grow to 16 MiB while a large log is read.
 *
 * Why: the reading thread allocates fast and keeps little, so V8 grows its new space, and a grown
 * new space is resident memory: under Node 22 it was 12 MiB of the 150 MB the threads may peak at
 * (issue 24). `--max-semi-space-size` cannot be changed once V8 has sized the heap, but the growth
 * factor is read at each growth, so setting it to 1 before the new space first grows holds it where
 * it is. A flag, not NODE_OPTIONS: `memdoctor` is started by npm's bin link, `node bin/...`, Docker
 * and tests alike, and a re-spawned process would cost its start-up again.
 */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}
