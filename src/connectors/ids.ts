/**
 * The grammar every typed id keeps before it is put in a path, and the check that the path built
 * from it stays under the configured base. An id is one path segment: it starts with a letter or
 * digit (so never "", "." or ".."; a URL parser folds those away, and `check spark ..` would ask
 * GET /api/v1/allexecutors) and holds no "/", "\", "%", "?" or "#".
 */
export const ID_SEGMENT = /^[A-Za-z0-9][\w.:-]{0,199}$/;

/** True when `value` is one segment of the id grammar, with no dot-only part between its ":" or "." signs. */
export function isIdSegment(value: string): boolean {
  return ID_SEGMENT.test(value) && !value.split(/[:]/).some((part) => /^\.*$/.test(part));
}

/**
 * True when `path` (with its query) appended to `base` is what the URL parser keeps: no segment
 * folded away, nothing re-encoded, the origin and the base path unchanged. A path that fails this
 * would ask for something other than what memdoctor built.
 */
export function staysUnder(base: string, path: string): boolean {
  if (!path.startsWith('/') || !URL.canParse(`${base}${path}`)) return false;
  const root = new URL(base);
  const url = new URL(`${base}${path}`);
  const [pathOnly = ''] = path.split('?');
  const basePath = root.pathname.replace(/\/$/, '');
  const segments = pathOnly.split('/').slice(1);
  if (segments.some((segment) => /^\.*$/.test(segment))) return false;
  return url.origin === root.origin && url.pathname === `${basePath}${pathOnly}` && !url.hash;
}
