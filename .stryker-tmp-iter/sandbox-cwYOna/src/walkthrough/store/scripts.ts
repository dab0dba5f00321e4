// @ts-nocheck
import { readdirSync, readFileSync } from 'node:fs';
import type { Cluster, Redis } from 'ioredis';

/** Negative codes the Lua scripts return; one name for each, used to pick the error. */
export enum ScriptCode {
  RecordMissing = -1,
  RecordExists = -2,
  VersionMismatch = -3,
}

/** A Lua script file: `<name>-<number of keys>.lua`, as BullMQ names them. */
export interface ScriptFile {
  name: string;
  numberOfKeys: number;
  lua: string;
}

const LUA_DIR = new URL('./lua/', import.meta.url);

/** Every script under lua/, read once. */
export function loadScripts(): ScriptFile[] {
  return readdirSync(LUA_DIR)
    .filter((file) => file.endsWith('.lua'))
    .sort()
    .map((file) => {
      const match = /^(\w+)-(\d+)\.lua$/.exec(file);
      if (!match?.[1] || !match[2]) throw new Error(`Lua script ${file} must be named <name>-<keys>.lua`);
      return {
        name: match[1],
        numberOfKeys: Number(match[2]),
        lua: readFileSync(new URL(file, LUA_DIR), 'utf8'),
      };
    });
}

type ScriptCall = (...args: (string | number)[]) => Promise<unknown>;

/**
 * Defines the scripts on a connection (EVALSHA, with EVAL when Redis has not seen them) and returns
 * a caller: `run('replaceWalkthrough', keys, args)`.
 */
export function defineScripts(
  redis: Redis | Cluster,
): (name: string, keys: string[], args: (string | number)[]) => Promise<unknown> {
  for (const script of loadScripts())
    redis.defineCommand(script.name, { numberOfKeys: script.numberOfKeys, lua: script.lua });
  const commands = redis as unknown as Record<string, ScriptCall | undefined>;
  return (name, keys, args) => {
    const call = commands[name];
    if (!call) throw new Error(`no Lua script "${name}" under src/walkthrough/store/lua`);
    return call.call(redis, ...keys, ...args);
  };
}
