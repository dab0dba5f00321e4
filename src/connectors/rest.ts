import { z } from 'zod';
import { ConnectorError } from '../errors.ts';
import { checkedJson } from './bounded.ts';
import type { RestTarget } from './config.ts';
import { faultError, faultOf } from './fetch-faults.ts';
import { type RestCall, restAsked, restGet } from './http.ts';
import { isIdSegment, staysUnder } from './ids.ts';
import { resourceNamed } from './resource.ts';
import type { Connector, Fetched, FetchRequest, ResourceSpec } from './types.ts';

/** One REST resource: where it lives, what it is, which parser reads it and which fields it cites. */
export interface RestResource extends ResourceSpec {
  /** Path (and query) under the base URL, from ids already checked against `idPatterns`. */
  path(ids: Readonly<Record<string, string>>): string;
  /** The text a person would paste for it; the body itself unless the paste is one field of it. */
  paste?(json: unknown, body: string): string;
  /** The fetched fields a diagnosis cites; `ids` name what was asked for (`taskmanagers/<id>/metrics ...`). */
  cite(json: unknown, ids: Readonly<Record<string, string>>): string[];
}

export interface RestConnectorSpec {
  name: string;
  title: string;
  /** Read access the credentials need, for 401/403 messages. */
  permission: string;
  /** What each id looks like: checked before any URL is built, so no typed text reaches a path. */
  idPatterns: Readonly<Record<string, { pattern: RegExp; example: string }>>;
  resources: Readonly<Record<string, RestResource>>;
}

function checkedIds(spec: RestConnectorSpec, resource: RestResource, request: FetchRequest) {
  const ids: Record<string, string> = {};
  for (const id of resource.ids) {
    const value = request.ids?.[id] ?? '';
    const shape = spec.idPatterns[id];
    // The shared grammar first: a connector's own pattern narrows it, never widens it.
    if (!isIdSegment(value) || !shape?.pattern.test(value))
      throw new ConnectorError(
        `${spec.title}: "${value}" is not a ${id} (expected something like ${shape?.example ?? id}).`,
      );
    ids[id] = value;
  }
  return ids;
}

/** The answer as JSON, or the sentence for an HTML page, JSON nested too deep, or no JSON at all. */
function parseJson(body: string, call: RestCall, target: RestTarget): unknown {
  try {
    return checkedJson(body);
  } catch (error) {
    const fault = faultOf(error);
    throw fault ? faultError(fault, restAsked(call, target)) : error;
  }
}

/** A connector over a REST API: the resources are data, the fetching and its guards are shared. */
export function restConnector(spec: RestConnectorSpec): Connector<RestTarget> {
  return {
    name: spec.name,
    title: spec.title,
    resources: spec.resources,
    checkIds(request) {
      checkedIds(spec, resourceNamed(spec.title, spec.resources, request.resource), request);
    },
    async fetch(request, context): Promise<Fetched> {
      const resource = resourceNamed(spec.title, spec.resources, request.resource);
      const ids = checkedIds(spec, resource, request);
      const path = resource.path(ids);
      if (!staysUnder(context.target.url, path))
        throw new ConnectorError(
          `${spec.title}: the ids given do not make a path under ${context.target.url} (${path}); nothing was requested.`,
        );
      const call = { system: spec.title, what: resource.what, permission: spec.permission, path };
      const body = await restGet(call, context.target);
      const fetchedAt = (context.now?.() ?? new Date()).toISOString();
      const json = parseJson(body, call, context.target);
      return {
        resource: request.resource,
        from: { connector: spec.name, path, fetchedAt },
        body,
        paste: resource.paste?.(json, body) ?? body,
        ...(resource.parser ? { parser: resource.parser } : {}),
        citations: resource.cite(json, ids),
      };
    },
  };
}

/** Reads a response with a loose schema for citing; a shape it does not know cites nothing. */
export function loosely<T>(schema: z.ZodType<T>, json: unknown): T | undefined {
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

export { z };
