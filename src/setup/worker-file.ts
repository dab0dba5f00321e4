import { packagePath } from '../paths.ts';

/**
 * A worker thread's file, named without its extension (`engine-worker`): the bundle in dist/ when
 * running built JavaScript, else the TypeScript source beside this file, run through tsx (tests and
 * `npm run start:dev`).
 */
export function workerFile(name: string): { filename: string; execArgv: string[] } {
  if (import.meta.url.endsWith('.ts'))
    return { filename: new URL(`./${name}.ts`, import.meta.url).href, execArgv: ['--import', 'tsx'] };
  return { filename: packagePath('dist', `${name}.js`), execArgv: [] };
}
