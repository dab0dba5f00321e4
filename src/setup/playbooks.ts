import type { Config } from '../config.ts';
import type { Playbook } from '../engine/playbook/schema.ts';
import { readCompiledPlaybooks } from '../playbooks/compiled.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../playbooks/load.ts';

/** The playbooks folder the configuration names (MEMDOCTOR_PLAYBOOKS_DIR), else the shipped one. */
export function playbooksDir(config: Pick<Config, 'MEMDOCTOR_PLAYBOOKS_DIR'>): string {
  return config.MEMDOCTOR_PLAYBOOKS_DIR ?? PLAYBOOKS_DIR;
}

/**
 * The playbooks every command, the console and the Slack app use. The shipped folder, unchanged since
 * the build, comes from the JSON the build validated; any other folder, or an edited one, from the YAML.
 */
export function configuredPlaybooks(config: Pick<Config, 'MEMDOCTOR_PLAYBOOKS_DIR'>): Playbook[] {
  const dir = playbooksDir(config);
  return (dir === PLAYBOOKS_DIR ? readCompiledPlaybooks(dir) : undefined) ?? loadPlaybooks(dir);
}
