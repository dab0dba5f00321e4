import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConnectorsConfig, parseConnectorsConfig } from '../../src/connectors/config.ts';
import { ConfigInvalidError } from '../../src/errors.ts';

const env = (vars: Record<string, string>) => (name: string) => vars[name];
const parse = (yaml: string, vars: Record<string, string> = {}) =>
  parseConnectorsConfig(yaml, 'connectors.yaml', env(vars));

function problem(yaml: string, vars: Record<string, string> = {}): string {
  try {
    parse(yaml, vars);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigInvalidError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('connectors.yaml', () => {
  it('reads the issue example, with defaults for the limits', () => {
    const config = parse(
      'flink: { url: https://flink-jm.internal:8081/, headers: { Authorization: env:FLINK_AUTH } }\nspark: { url: http://spark-history:18080 }\nyarn: { url: http://rm:8088, timeoutMs: 2000 }\n',
      { FLINK_AUTH: 'Bearer abc' },
    );
    expect(config.flink?.url).toBe('https://flink-jm.internal:8081');
    expect(config.flink?.headers.Authorization?.reveal()).toBe('Bearer abc');
    expect(config.spark).toMatchObject({ timeoutMs: 5000, maxBytes: 8 * 1024 * 1024 });
    expect(config.yarn?.timeoutMs).toBe(2000);
  });

  it('never shows a secret when the configuration is printed or logged', () => {
    const config = parse('flink: { url: http://jm:8081, headers: { Authorization: env:FLINK_AUTH } }', {
      FLINK_AUTH: 'Bearer abc',
    });
    expect(JSON.stringify(config)).not.toContain('abc');
    expect(inspect(config, { depth: 5 })).not.toContain('abc');
    expect(`${config.flink?.headers.Authorization}`).toBe('[redacted]');
  });

  it('reads a secret from a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'connectors-'));
    writeFileSync(join(dir, 'token'), 'Bearer from-file\n');
    const config = parse(`yarn: { url: http://rm:8088, headers: { Authorization: "file:${dir}/token" } }`);
    expect(config.yarn?.headers.Authorization?.reveal()).toBe('Bearer from-file');
  });

  it.each([
    [
      'a secret written in the file',
      'flink: { url: http://jm:8081, headers: { Authorization: Bearer abc } }',
      /must be a reference, env:NAME or file:\/absolute\/path, never the secret itself in the file\n {2}→ at flink.headers.Authorization/,
    ],
    [
      'a URL that is not http',
      'spark: { url: ftp://history:18080 }',
      /must be an http:\/\/ or https:\/\/ URL such as http:\/\/flink-jm:8081\n {2}→ at spark.url/,
    ],
    [
      'credentials in the URL',
      'yarn: { url: "http://admin:pw@rm:8088" }',
      /must not carry a user or password: put credentials in headers/,
    ],
    ['a query in the base URL', 'yarn: { url: "http://rm:8088/?user.name=x" }', /without \?query/],
    [
      'a connector this build has not',
      'kubernetes: { context: prod }',
      /is not supported by this build yet \(it reads flink, spark, yarn and glue\)\n {2}→ at kubernetes/,
    ],
    ['an unknown key', 'flink: { url: http://jm:8081, timeout: 5 }', /Unrecognized key: "timeout"/],
    ['a timeout out of range', 'flink: { url: http://jm:8081, timeoutMs: 10 }', /flink.timeoutMs/],
  ])('refuses %s with a message that says what to change', (_what, yaml, message) => {
    expect(problem(yaml)).toMatch(message);
  });

  it('names the variable a reference needs when it is not set', () => {
    expect(problem('flink: { url: http://jm:8081, headers: { Authorization: env:FLINK_AUTH } }')).toBe(
      'configuration error:\nconnectors.yaml: flink.headers.Authorization names env:FLINK_AUTH, but FLINK_AUTH is not set',
    );
  });

  it('names a file it cannot read', () => {
    expect(() => loadConnectorsConfig('/nonexistent/connectors.yaml', env({}))).toThrow(
      'MEMDOCTOR_CONNECTORS names /nonexistent/connectors.yaml, which cannot be read (ENOENT)',
    );
  });
});
