import { type Config, playbooksDirProblem } from '../config.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { ConfigInvalidError } from '../errors.ts';
import { readCompiledPlaybooks } from '../playbooks/compiled.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../playbooks/load.ts';

/**
 * The playbooks folder the configuration names (MEMDOCTOR_PLAYBOOKS_DIR), else the shipped one. A
 * folder that is not there or holds no playbook stops with a message naming the variable and path.
 */
export function playbooksDir(config: Pick<Config, 'MEMDOCTOR_PLAYBOOKS_DIR'>): string {
  const dir = config.MEMDOCTOR_PLAYBOOKS_DIR;
  if (dir === undefined) return PLAYBOOKS_DIR;
  const problem = playbooksDirProblem(dir);
  if (problem) throw new ConfigInvalidError(`✖ ${problem}\n  → at MEMDOCTOR_PLAYBOOKS_DIR`);
  return dir;
}

/**
 * The playbooks every command, the console and the Slack app use. The shipped folder, unchanged since
 * the build, comes from the JSON the build validated; any other folder, or an edited one, from the YAML.
 */
export function configuredPlaybooks(config: Pick<Config, 'MEMDOCTOR_PLAYBOOKS_DIR'>): Playbook[] {
  const dir = playbooksDir(config);
  return (dir === PLAYBOOKS_DIR ? readCompiledPlaybooks(dir) : undefined) ?? loadPlaybooks(dir);
}
