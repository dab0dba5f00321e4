// `npm run build` (and `prepare`, so `npm ci` builds): bundles the TypeScript into plain JavaScript in
// dist/, then validates the shipped playbooks once into dist/playbooks.json. Plain .mjs so it runs
// before anything is built. Dependencies stay external: Bolt, openai and ioredis load only when a
// command imports them, and code splitting keeps the dynamically imported surfaces in their own chunks.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist`;

// The message families kept as data are validated and compiled first: the engine imports the result.
execFileSync(process.execPath, ['--import', 'tsx', `${root}scripts/compile-families.ts`], {
  stdio: 'inherit',
});
// Then the scan windows of the shipped triggers, which depend on those families' triggers.
execFileSync(process.execPath, ['--import', 'tsx', `${root}scripts/compile-windows.ts`], {
  stdio: 'inherit',
});
rmSync(dist, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    cli: 'src/memdoctor.ts',
    main: 'src/main.ts',
    'compile-playbooks': 'src/playbooks/compile.ts',
    // The Slack app's diagnosis threads (src/setup/engine-pool.ts) load this file by name.
    'engine-worker': 'src/setup/engine-worker.ts',
    // The threads that read a large input's blocks for `memdoctor diagnose` (src/setup/block-pool.ts).
    'block-worker': 'src/setup/block-worker.ts',
    // The Slack app's heap dump thread (src/setup/heap-pool.ts).
    'heap-worker': 'src/setup/heap-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // The heavy clients stay external (and load only when used); zod too, because openai's helpers must
  // see the same zod. yaml and picocolors are bundled: one file to load instead of dozens.
  external: [
    // Loaded by the Kubernetes connector on its first fetch only (src/connectors/kubernetes-client.ts).
    '@kubernetes/client-node',
    'piscina',
    '@slack/bolt',
    '@slack/web-api',
    'openai',
    'openai/*',
    'ioredis',
    // The AWS SDK clients load only when a Glue connector fetches (src/connectors/glue-*.ts).
    '@aws-sdk/*',
    'pino',
    // A native addon per platform (a prebuilt .node file) that loads itself; the font is read by path.
    '@resvg/resvg-js',
    'zod',
    'zod/*',
  ],
  // Source maps only when asked (`node scripts/build.mjs --sourcemap`): they doubled the package and
  // the image, and the published code is not minified, so its stack traces read as they are.
  sourcemap: process.argv.includes('--sourcemap'),
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  // yaml is CommonJS and requires node built-ins; an ES module bundle needs a require to give it.
  banner: {
    js: "import { createRequire as __memdoctorRequire } from 'node:module'; const require = __memdoctorRequire(import.meta.url);",
  },
});
execFileSync(process.execPath, [`${dist}/compile-playbooks.js`], { stdio: 'inherit' });
