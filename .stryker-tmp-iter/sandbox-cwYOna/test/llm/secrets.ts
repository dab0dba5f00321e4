// @ts-nocheck
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

/** A table of secrets in the formats their issuers use, with a tell-tale part of each. */
export const SECRETS: ReadonlyArray<{
  name: string;
  input: string;
  kinds: Record<string, number>;
  secret: string;
}> = [
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
    name: 'password in a MongoDB SRV URL',
    input:
      'MongoServerError: bad auth, uri mongodb+srv://reporter:p%40ssW0rd!@cluster0.ab1cd.mongodb.net/events',
    kinds: { 'url-password': 1 },
    secret: 'p%40ssW0rd!',
  },
  {
    name: 'password in a JDBC string (SQL Server)',
    input: 'jdbc:sqlserver://sql.internal:1433;databaseName=dw;user=loader;password=Tr0ub4dor&3;encrypt=true',
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
