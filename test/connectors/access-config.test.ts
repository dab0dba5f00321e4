import { describe, expect, it } from 'vitest';
import { parseConnectorsConfig } from '../../src/connectors/config.ts';
import { ConfigInvalidError } from '../../src/errors.ts';

const parse = (yaml: string) =>
  parseConnectorsConfig(yaml, '/etc/memdoctor/connectors.yaml', () => undefined);

function problem(yaml: string): string {
  try {
    parse(yaml);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigInvalidError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('connectors.yaml access', () => {
  it('reads a rule per connector; showIn defaults to none (answers for the asker only)', () => {
    const config = parse(`
flink: { url: http://jm:8081 }
spark: { url: http://history:18080 }
access:
  flink: { channels: [C012AB3CD], users: [U012AB3CD, W0456EF7G], userGroups: [S0789HIJK], showIn: [C012AB3CD] }
`);
    expect(config.access).toEqual({
      flink: {
        channels: ['C012AB3CD'],
        users: ['U012AB3CD', 'W0456EF7G'],
        userGroups: ['S0789HIJK'],
        showIn: ['C012AB3CD'],
      },
    });
  });

  it('no access key: none is set', () => {
    expect(parse('flink: { url: http://jm:8081 }\n').access).toBeUndefined();
  });

  it.each([
    [
      'a channel name instead of its id',
      'channels: ["#incidents"]',
      'access.flink.channels[0]',
      'a Slack channel id',
    ],
    ['a user name instead of a member id', 'users: ["@alice"]', 'access.flink.users[0]', 'a Slack member id'],
    ['a group handle', 'userGroups: [oncall]', 'access.flink.userGroups[0]', 'a Slack user group id'],
    ['an empty list', 'users: []', 'access.flink.users', '>=1'],
    ['a misspelt key', 'showin: [C012AB3CD]', 'access.flink', 'showin'],
  ])('%s names the file and the key', (_what, rule, key, says) => {
    const message = problem(`flink: { url: http://jm:8081 }\naccess:\n  flink: { ${rule} }\n`);
    expect(message).toContain('/etc/memdoctor/connectors.yaml');
    expect(message).toContain(key);
    expect(message).toContain(says);
  });

  it('a rule for a connector that is not configured is refused, naming it', () => {
    expect(problem('flink: { url: http://jm:8081 }\naccess:\n  glue: { showIn: [C012AB3CD] }\n')).toContain(
      'access.glue is set, but there is no "glue:" entry',
    );
  });

  it('an unknown connector under access is refused', () => {
    expect(problem('flink: { url: http://jm:8081 }\naccess:\n  aws: { showIn: [C012AB3CD] }\n')).toContain(
      'aws',
    );
  });
});
