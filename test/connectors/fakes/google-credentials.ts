import { createVerify, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A service account made for one test: its key file (as Google issues them) and the public key. */
export interface TestServiceAccount {
  file: string;
  email: string;
  publicKey: KeyObject;
}

/**
 * Writes a service-account key file in Google's JSON format with a key made here, so Application
 * Default Credentials (GOOGLE_APPLICATION_CREDENTIALS) run as in production: the library signs a JWT
 * for the API's audience with it, and the fake checks the signature.
 */
export function testServiceAccount(project: string): TestServiceAccount {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const email = `memdoctor-reader@${project}.iam.gserviceaccount.com`;
  const file = join(mkdtempSync(join(tmpdir(), 'memdoctor-sa-')), 'key.json');
  writeFileSync(
    file,
    JSON.stringify({
      type: 'service_account',
      project_id: project,
      private_key_id: 'memdoctor-test-key',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      client_email: email,
      client_id: '100000000000000000001',
      token_uri: 'https://oauth2.googleapis.com/token',
    }),
  );
  return { file, email, publicKey };
}

/** The scope memdoctor asks for; IAM (roles/dataflow.viewer) narrows what it may do. */
export const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';

/**
 * True when the bearer token is a JWT the account signed (RS256) for the scope, unexpired: the
 * self-signed JWT google-auth-library makes with useJWTAccessWithScope.
 */
export function signedBy(token: string, account: TestServiceAccount, scope = CLOUD_PLATFORM): boolean {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return false;
  const verify = createVerify('RSA-SHA256');
  verify.update(`${header}.${payload}`);
  if (!verify.verify(account.publicKey, Buffer.from(signature, 'base64url'))) return false;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  const live = typeof claims.exp === 'number' && claims.exp * 1000 > Date.now();
  return claims.iss === account.email && claims.sub === account.email && claims.scope === scope && live;
}
