import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Cluster, Redis } from 'ioredis';
import { packagePath } from '../paths.ts';

/** Negative codes the Lua scripts return; one name for each, used to pick the error. */
export enum ScriptCode {
  RecordMissing = -1,
  RecordExists = -2,
  VersionMismatch = -3,
  /** A case's input left out: the case holds its most inputs. */
  CaseInputsFull = -4,
  /** A case's input left out: it would take the case past its most bytes. */
  CaseBytesFull = -5,
  /** A fetch refused: the person has their most fetches running. */
  FetchPerUser = -6,
  /** A fetch refused: the person started their most fetches in the window. */
  FetchPerWindow = -7,
  /** A fetch refused: everyone together has the most fetches running. */
  FetchTotal = -8,
}

/** A Lua script file under lua/: `<name>-<number of keys>.lua`, as BullMQ names them. */
export interface ScriptFile {
  name: string;
  numberOfKeys: number;
  lua: string;
}

// From the package root, not this module's URL: the bundle in dist/ has no lua/ beside it.
const LUA_DIR = pathToFileURL(`${packagePath('src', 'redis', 'lua')}/`);

/** Every script memdoctor runs in Redis (walkthrough writes, model request counts), read once. */
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

/** Runs one script by name: `run('replaceWalkthrough', keys, args)`. */
export type RunScript = (name: string, keys: string[], args: (string | number)[]) => Promise<unknown>;

type ScriptCall = (...args: (string | number)[]) => Promise<unknown>;

/** One caller per connection: stores sharing a connection define the scripts once. */
const defined = new WeakMap<Redis | Cluster, RunScript>();

/**
 * Defines every script on a connection (EVALSHA, with EVAL when Redis has not seen them) and returns
 * the caller.
 */
export function defineScripts(redis: Redis | Cluster): RunScript {
  const known = defined.get(redis);
  if (known) return known;
  for (const script of loadScripts())
    redis.defineCommand(script.name, { numberOfKeys: script.numberOfKeys, lua: script.lua });
  const commands = redis as unknown as Record<string, ScriptCall | undefined>;
  const run: RunScript = (name, keys, args) => {
    const call = commands[name];
    if (!call) throw new Error(`no Lua script "${name}" under src/redis/lua`);
    return call.call(redis, ...keys, ...args);
  };
  defined.set(redis, run);
  return run;
}
