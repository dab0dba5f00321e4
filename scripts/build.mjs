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

rmSync(dist, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    cli: 'src/cli/main.ts',
    main: 'src/main.ts',
    'compile-playbooks': 'src/playbooks/compile.ts',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
execFileSync(process.execPath, [`${dist}/compile-playbooks.js`], { stdio: 'inherit' });
