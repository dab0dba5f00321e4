import { ConnectorError } from '../errors.ts';

/** The resource a request names, or an error listing what `system` can fetch. */
export function resourceNamed<R>(system: string, resources: Readonly<Record<string, R>>, name: string): R {
  const resource = resources[name];
  if (!resource)
    throw new ConnectorError(
      `${system} cannot fetch "${name}" (it can: ${Object.keys(resources).join(', ')}).`,
    );
  return resource;
}
