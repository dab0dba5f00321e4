/**
 * The vocabulary the surfaces (src/slack, src/cli) share with the use cases: types, and the few
 * constants a surface needs to read its input (which systems `--engine` names). Surfaces import
 * these from here, never from the engine, the setup or Redis.
 */

// From its own file: a surface that names the hints (the MCP server's schemas) loads no engine with them.
export { ENGINE_HINTS } from '../engine/hints.ts';
export type { Diagnosis, EngineHint, InputReport } from '../engine/index.ts';
export type { Playbook } from '../engine/playbook/schema.ts';
export type { ClusterHealth } from '../redis/health.ts';
