// @ts-nocheck
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Slack's published specs, vendored under test/slack/specs so the tests run anywhere. */
export const SPECS_DIR = fileURLToPath(new URL('../specs/', import.meta.url));

/** What the published spec says one Web API method accepts. */
export interface MethodSpec {
  params: Set<string>;
  required: Set<string>;
}

interface OpenApiParam {
  name: string;
  in: string;
  required?: boolean;
}

/** The two upload methods postdate the 2020 spec; the README in slack-specs describes them. */
const UPLOAD_METHODS: Record<string, MethodSpec> = {
  'files.getUploadURLExternal': {
    params: new Set(['filename', 'length', 'alt_txt', 'snippet_type']),
    required: new Set(['filename', 'length']),
  },
  'files.completeUploadExternal': {
    params: new Set(['files', 'channel_id', 'thread_ts', 'initial_comment']),
    required: new Set(['files']),
  },
  // Socket Mode (2021) postdates the spec too: no arguments, called with the app-level token.
  'apps.connections.open': { params: new Set(), required: new Set() },
};

/** Every Web API method with its parameters, read from Slack's OpenAPI file. The token travels as a header. */
export function loadWebApiSpec(): Map<string, MethodSpec> {
  const doc = JSON.parse(readFileSync(`${SPECS_DIR}slack_web_openapi_v2_without_examples.json`, 'utf8')) as {
    paths: Record<string, Record<string, { parameters?: OpenApiParam[] }>>;
  };
  const methods = new Map<string, MethodSpec>(Object.entries(UPLOAD_METHODS));
  for (const [path, verbs] of Object.entries(doc.paths)) {
    const spec: MethodSpec = { params: new Set(), required: new Set() };
    for (const op of Object.values(verbs))
      for (const p of op.parameters ?? []) {
        if (p.name === 'token') continue;
        spec.params.add(p.name);
        if (p.required) spec.required.add(p.name);
      }
    methods.set(path.replace(/^\//, ''), spec);
  }
  return methods;
}

/** Why a call breaks the spec, or undefined when it conforms. */
export function specViolation(
  methods: Map<string, MethodSpec>,
  method: string,
  args: Record<string, string>,
): string | undefined {
  const spec = methods.get(method);
  if (!spec) return `unknown method ${method}`;
  const unknown = Object.keys(args).filter((k) => !spec.params.has(k));
  if (unknown.length > 0) return `${method}: unknown arguments ${unknown.join(', ')}`;
  const missing = [...spec.required].filter((k) => args[k] === undefined || args[k] === '');
  if (missing.length > 0) return `${method}: missing required arguments ${missing.join(', ')}`;
  return undefined;
}
