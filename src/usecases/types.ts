/**
 * The vocabulary the surfaces (src/slack, src/cli) share with the use cases: types, and the few
 * constants a surface needs to read its input (which systems `--engine` names). Surfaces import
 * these from here, never from the engine, the setup or Redis.
 */

export type { Diagnosis, EngineHint, InputReport } from '../engine/index.ts';
export { ENGINE_HINTS } from '../engine/index.ts';
export type { Playbook } from '../engine/playbook/schema.ts';
export type { ClusterHealth } from '../redis/health.ts';
