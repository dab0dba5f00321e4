import { describe, expect, it } from 'vitest';
import { mergeReceipts, redact } from '../../src/llm/redact.ts';

// Real-format values: published example keys (AWS docs, Azurite, jwt.io, Slack docs) or random
// strings in the exact shape the provider issues. None of them is a live credential.
const PEM = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
  'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK',
  '-----END RSA PRIVATE KEY-----',
].join('\n');
const GCP_JSON =
  '{"type": "service_account", "project_id": "demo-etl", "private_key_id": "3f2b9c1d8e7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\\n-----END PRIVATE KEY-----\\n", "client_email": "etl-runner@demo-etl.iam.gserviceaccount.com"}';

const SECRETS: ReadonlyArray<{ name: string; input: string; kinds: Record<string, number>; secret: string }> =
  [
    {
      name: 'AWS access key id',
      input: 'Using credentials AKIAIOSFODNN7EXAMPLE for s3://bucket',
      kinds: { 'aws-access-key-id': 1 },
      secret: 'AKIAIOSFODNN7EXAMPLE',
    },
    {
      name: 'AWS temporary key id',
      input: 'assumed role, key ASIAY34FZKBOKMUTVV7A expires soon',
      kinds: { 'aws-access-key-id': 1 },
      secret: 'ASIAY34FZKBOKMUTVV7A',
    },
    {
      name: 'AWS secret key in a credentials file',
      input: 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      kinds: { 'aws-secret-access-key': 1 },
      secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    },
    {
      name: 'AWS secret key as a Spark setting',
      input: '--conf spark.hadoop.fs.s3a.secret.key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      kinds: { 'aws-secret-access-key': 1 },
      secret: 'wJalrXUtnFEMI/K7MDENG',
    },
    {
      name: 'AWS secret key in JSON',
      input:
        '{"SecretAccessKey": "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY", "AccessKeyId": "ASIAIOSFODNN7EXAMPLE"}',
      kinds: { 'aws-secret-access-key': 1, 'aws-access-key-id': 1 },
      secret: 'je7MtGbClwBF',
    },
    {
      name: 'GCP service-account file',
      input: GCP_JSON,
      kinds: { 'private-key': 1, 'gcp-private-key-id': 1, email: 1 },
      secret: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7',
    },
    {
      name: 'GCP API key',
      input:
        'GET https://maps.googleapis.com/maps/api/geocode/json?key=AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW',
      kinds: { 'gcp-api-key': 1 },
      secret: 'AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW',
    },
    {
      name: 'Azure storage connection string',
      input:
        'DefaultEndpointsProtocol=https;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;EndpointSuffix=core.windows.net',
      kinds: { 'azure-key': 1 },
      secret: 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq',
    },
    {
      name: 'Azure Service Bus connection string',
      input:
        'Endpoint=sb://etl-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=k3Y9m2Qx7PzL0aB4cD5eF6gH7iJ8kL9mN0oP1qR2sT3=',
      kinds: { 'azure-key': 1 },
      secret: 'k3Y9m2Qx7PzL0aB4cD5eF6gH7iJ8kL9mN0oP1qR2sT3=',
    },
    {
      name: 'Azure SAS URL',
      input:
        'reading https://acct.blob.core.windows.net/logs/run.log?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-01T00:00:00Z&sig=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg%3D%3D',
      kinds: { 'azure-sas-signature': 1 },
      secret: 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg',
    },
    {
      name: 'Slack bot token',
      input: 'SLACK_BOT_TOKEN=xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy',
      kinds: { 'slack-token': 1 },
      secret: 'pdFZKVeTuE8sk7oOcBrzbqgy',
    },
    {
      name: 'Slack user token and app token',
      input:
        'user xoxp-2287371-1847363-9918273645-a8c7f6e5d4c3b2a1 app xapp-1-A0123456789-1234567890123-abcdef0123456789',
      kinds: { 'slack-token': 2 },
      secret: 'a8c7f6e5d4c3b2a1',
    },
    {
      name: 'Slack webhook URL',
      input: 'posting alert to https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
      kinds: { 'slack-webhook': 1 },
      secret: 'XXXXXXXXXXXXXXXXXXXXXXXX',
    },
    {
      name: 'GitHub classic token',
      input: 'git clone https://ghp_R2d2C3poX9y8W7v6U5t4S3r2Q1p0O9n8M7l6@github.com/acme/etl.git',
      kinds: { 'github-token': 1 },
      secret: 'ghp_R2d2C3poX9y8W7v6U5t4S3r2Q1p0O9n8M7l6',
    },
    {
      name: 'GitHub fine-grained token',
      input:
        'GH_TOKEN=github_pat_11ABCDEFG0123456789abc_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUv',
      kinds: { 'github-token': 1 },
      secret: 'github_pat_11ABCDEFG',
    },
    {
      name: 'OpenAI project key',
      input:
        'openai.AuthenticationError: key sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z_Ab3dEf6hIj9kLm2nOp5qRs8tUv1w rejected',
      kinds: { 'openai-key': 1 },
      secret: 'sk-proj-Ab3dEf6hIj9',
    },
    {
      name: 'OpenAI legacy key',
      input: 'OPENAI_API_KEY=sk-3xAmPlE9kEy0nLy4TeSt1nGaBcDeFgHiJkLmNoPqRsTuVwXy',
      kinds: { 'openai-key': 1 },
      secret: 'sk-3xAmPlE9kEy0',
    },
    {
      name: 'JWT',
      input:
        'token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c accepted',
      kinds: { jwt: 1 },
      secret: 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    },
    {
      name: 'Bearer header',
      input: 'curl -H "Authorization: Bearer 9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c" https://api.internal/v1/jobs',
      kinds: { 'bearer-token': 1 },
      secret: '9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c',
    },
    {
      name: 'Basic auth header',
      input: 'Authorization: Basic ZXRsLXVzZXI6aHVudGVyMg==',
      kinds: { 'basic-auth': 1 },
      secret: 'ZXRsLXVzZXI6aHVudGVyMg==',
    },
    {
      name: 'password in a URL',
      input: 'Connecting to postgresql://etl_user:S3cr3t-P4ss@db.internal:5432/warehouse',
      kinds: { 'url-password': 1 },
      secret: 'S3cr3t-P4ss',
    },
    {
      name: 'password in a JDBC string (SQL Server)',
      input:
        'jdbc:sqlserver://sql.internal:1433;databaseName=dw;user=loader;password=Tr0ub4dor&3;encrypt=true',
      kinds: { password: 1 },
      secret: 'Tr0ub4dor',
    },
    {
      name: 'password in a JDBC string (MySQL query)',
      input: 'jdbc:mysql://mysql.internal:3306/dw?user=loader&password=ZmVhcmxlc3M5&useSSL=true',
      kinds: { password: 1 },
      secret: 'ZmVhcmxlc3M5',
    },
    {
      name: 'password in a JDBC string (Oracle thin)',
      input: 'jdbc:oracle:thin:scott/tiger42@//ora.internal:1521/ORCL',
      kinds: { 'jdbc-password': 1 },
      secret: 'tiger42',
    },
    {
      name: 'password in YAML and env',
      input: 'DB_PASSWORD=hunter2-prod and redis password: "c0rrect-h0rse"',
      kinds: { password: 2 },
      secret: 'hunter2-prod',
    },
    {
      name: 'PEM private key block',
      input: `config loaded\n${PEM}\nstarting executor`,
      kinds: { 'private-key': 1 },
      secret: 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
    },
    {
      name: 'e-mail addresses',
      input: 'job owner jane.doe@example.com, Slack <mailto:ops+oncall@corp.example.org|ops>',
      kinds: { email: 2 },
      secret: 'jane.doe@example.com',
    },
  ];

describe('redact: real-format secrets', () => {
  it.each(SECRETS)('$name', ({ input, kinds, secret }) => {
    const { text, receipt } = redact(input);
    expect(text).not.toContain(secret);
    expect(receipt).toEqual(kinds);
    for (const kind of Object.keys(kinds)) expect(text).toContain(`[REDACTED:${kind}]`);
  });

  it('keeps the key name and the user so the line still reads', () => {
    expect(redact('postgresql://etl_user:S3cr3t@db:5432/dw').text).toBe(
      'postgresql://etl_user:[REDACTED:url-password]@db:5432/dw',
    );
    expect(redact('password=hunter2;').text).toBe('password=[REDACTED:password];');
    expect(redact('Authorization: Bearer abcdefgh12345678').text).toBe(
      'Authorization: Bearer [REDACTED:bearer-token]',
    );
  });

  it('is idempotent: redacting twice changes nothing and counts nothing', () => {
    const once = redact(SECRETS.map((s) => s.input).join('\n'));
    const twice = redact(once.text);
    expect(twice.text).toBe(once.text);
    expect(twice.receipt).toEqual({});
  });
});

const ORDINARY = [
  '\tat org.apache.spark.executor.Executor$TaskRunner.run(Executor.scala:551)',
  '\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)',
  'java.lang.OutOfMemoryError: Java heap space',
  'Container killed by YARN for exceeding memory limits. 10.4 GB of 10 GB physical memory used. Consider boosting spark.yarn.executor.memoryOverhead.',
  'ExecutorLostFailure (executor 7 exited caused by one of the running tasks) Reason: Container from a bad node: container_1692950400000_0042_01_000008 on host: ip-10-0-12-34.ec2.internal. Exit status: 137.',
  '23/08/25 09:14:07 ERROR YarnScheduler: Lost executor 7 on ip-10-0-12-34.ec2.internal',
  '2026-11-29T11:38:33.123Z INFO  TaskSetManager: Finished task 3.0 in stage 12.0 (TID 412) in 5123 ms on 10.0.12.34 (executor 2) (4/200)',
  'Total size of serialized results of 412 tasks (1024.3 MiB) is bigger than spark.driver.maxResultSize (1024.0 MiB)',
  'commit 9fceb02d0ae598e95dc970b74767f19372d61af8 sha256:3b1f9e0c7a5d2f8e4b6a9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f',
  'docker: container 4f66ad9a0b2e1c8d7f6e5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d exited with code 137',
  'akka.tcp://flink@flink-jobmanager.default.svc:6123/user/rpc/resourcemanager_0',
  'org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not acquire the minimum required resources.',
  'Memory: heap used=3.2g committed=4g max=4g; direct 512 MiB; metaspace 256m -Xmx4g -XX:MaxMetaspaceSize=512m',
  'java.lang.Object@1b6d3586 org.apache.spark.SparkContext@3f2a1b9c',
  'Traceback (most recent call last):\n  File "/usr/lib/python3/dist-packages/apache_beam/runners/worker/sdk_worker.py", line 287, in _execute',
  'kubectl describe pod task-runner-7d9f8b6c5-x2x4z  Last State: Terminated  Reason: OOMKilled  Exit Code: 137',
  'Using task-manager-skew-detector-9000 for disk-usage-report',
  'spark.executor.memory=8g spark.memory.fraction=0.6 spark.sql.autoBroadcastJoinThreshold=-1',
  'Invalid token at position 42 in expression',
  'uuid 123e4567-e89b-12d3-a456-426614174000 trace_id=4bf92f3577b34da6a3ce929d0e0e4736',
];

describe('redact: ordinary log lines are left alone', () => {
  it.each(ORDINARY)('%s', (line) => {
    const { text, receipt } = redact(line);
    expect(text).toBe(line);
    expect(receipt).toEqual({});
  });
});

describe('mergeReceipts', () => {
  it('adds counts per kind', () => {
    expect(mergeReceipts({ email: 1 }, { email: 2, jwt: 1 })).toEqual({ email: 3, jwt: 1 });
  });
});
