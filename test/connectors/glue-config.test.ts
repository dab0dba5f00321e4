import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { awsClientConfig, shellQuote } from '../../src/connectors/aws-clients.ts';
import { BoundedAwsHandler } from '../../src/connectors/aws-handler.ts';
import { parseConnectorsConfig } from '../../src/connectors/config.ts';
import { ConfigInvalidError } from '../../src/errors.ts';

const parse = (yaml: string) => parseConnectorsConfig(yaml, 'connectors.yaml', () => undefined);

function problem(yaml: string): string {
  try {
    parse(yaml);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigInvalidError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('connectors.yaml: glue', () => {
  it('reads a region alone, with the defaults for the limits and no endpoint', () => {
    expect(parse('glue: { region: eu-west-1 }').glue).toEqual({
      region: 'eu-west-1',
      endpoints: {},
      timeoutMs: 5000,
      maxAttempts: 2,
      maxBytes: 8 * 1024 * 1024,
      logEvents: 200,
    });
  });

  it('gives one endpoint to all three services, or one per service', () => {
    const one = parse('glue: { region: us-east-1, endpoint: "http://127.0.0.1:4566" }').glue;
    expect(one?.endpoints).toEqual({
      glue: 'http://127.0.0.1:4566',
      cloudwatch: 'http://127.0.0.1:4566',
      logs: 'http://127.0.0.1:4566',
    });
    const each = parse(
      'glue:\n  region: eu-west-1\n  profile: memdoctor-readonly\n  endpoint: { glue: "https://vpce-1.glue.eu-west-1.vpce.amazonaws.com" }\n  logGroup: /aws-glue/jobs/error\n  logEvents: 50\n',
    ).glue;
    expect(each).toMatchObject({
      profile: 'memdoctor-readonly',
      endpoints: { glue: 'https://vpce-1.glue.eu-west-1.vpce.amazonaws.com' },
      logGroup: '/aws-glue/jobs/error',
      logEvents: 50,
    });
  });

  it('holds no secret to print: the profile is a name, credentials stay in the SDK chain', () => {
    const config = parse('glue: { region: eu-west-1, profile: ops }');
    expect(inspect(config, { depth: 5 })).not.toMatch(/secret|key/i);
  });

  it.each([
    [
      'no region',
      'glue: { profile: ops }',
      /is required: the AWS region of the Glue jobs, such as eu-west-1\n {2}→ at glue.region/,
    ],
    [
      'a region that is not one',
      'glue: { region: Ireland }',
      /must be an AWS region name such as eu-west-1\n {2}→ at glue.region/,
    ],
    [
      'an access key written in the file',
      'glue: { region: eu-west-1, accessKeyId: AKIAIOSFODNN7EXAMPLE }',
      /Unrecognized key: "accessKeyId"/,
    ],
    [
      'an endpoint that is not http',
      'glue: { region: eu-west-1, endpoint: "ftp://glue" }',
      /must be an http:\/\/ or https:\/\/ URL/,
    ],
    [
      'an endpoint for a service it does not call',
      'glue: { region: eu-west-1, endpoint: { s3: "https://s3.amazonaws.com" } }',
      /glue.endpoint/,
    ],
    ['too many attempts', 'glue: { region: eu-west-1, maxAttempts: 10 }', /glue.maxAttempts/],
    ['the old aws key', 'aws: { region: eu-west-1 }', /AWS Glue is read through a "glue:" entry/],
  ])('refuses %s with a message that names the key', (_what, yaml, message) => {
    expect(problem(yaml)).toMatch(message);
  });
});

describe('the AWS SDK clients built from a glue target', () => {
  it('get the region, attempts, endpoint and profile, and no credentials', () => {
    const target = parse(
      'glue: { region: eu-west-1, profile: ops, endpoint: { logs: "https://vpce-1.logs.eu-west-1.vpce.amazonaws.com" }, maxAttempts: 3 }',
    ).glue;
    if (!target) throw new Error('expected a glue target');
    const config = awsClientConfig(target, 'logs');
    expect(config).toEqual({
      region: 'eu-west-1',
      maxAttempts: 3,
      requestHandler: expect.any(BoundedAwsHandler),
      endpoint: 'https://vpce-1.logs.eu-west-1.vpce.amazonaws.com',
      profile: 'ops',
    });
    // Every answer goes through the fetch discipline, with the target's limits.
    expect(config.requestHandler).toMatchObject({ limits: { maxBytes: 8 * 1024 * 1024, timeoutMs: 5000 } });
    // No endpoint for Glue itself: the SDK resolves AWS's public one for the region.
    expect(awsClientConfig(target, 'glue')).not.toHaveProperty('endpoint');
  });

  it('quotes a job name for the CLI command to paste instead, when it must', () => {
    expect(shellQuote('nightly-rollup')).toBe('nightly-rollup');
    expect(shellQuote("Bob's data")).toBe("'Bob'\\''s data'");
  });
});
