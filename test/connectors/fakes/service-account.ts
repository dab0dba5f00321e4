import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_ACCOUNT_DIR } from '../../../src/connectors/kubernetes-in-cluster.ts';

/** A certificate and its key, PEM. */
export interface Pem {
  cert: string;
  key: string;
}

const openssl = (cwd: string, ...args: string[]) =>
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
// P-256 keys: made in milliseconds, where RSA 2048 takes a noticeable part of a second each.
const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** A certificate authority made by openssl, as a cluster's (kube-root-ca.crt) is: self-signed, CA:TRUE. */
export function makeCa(dir: string, name: string): Pem {
  openssl(
    dir,
    'req',
    '-x509',
    ...NEW_KEY,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  return {
    cert: readFileSync(join(dir, `${name}.crt`), 'utf8'),
    key: readFileSync(join(dir, `${name}.key`), 'utf8'),
  };
}

/** The API server's serving certificate, for `ip`, signed by the CA `ca` (its makeCa name, as a path from `dir`). */
export function makeServerCert(dir: string, ca: string, ip = '127.0.0.1'): Pem {
  openssl(
    dir,
    'req',
    ...NEW_KEY,
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=kube-apiserver',
  );
  writeFileSync(
    join(dir, 'server.ext'),
    `subjectAltName=IP:${ip}\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\n`,
  );
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    `${ca}.crt`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '2',
    '-extfile',
    'server.ext',
  );
  return {
    cert: readFileSync(join(dir, 'server.crt'), 'utf8'),
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
  };
}

/** A pod's service account volume under a temporary path prefix, as the kubelet mounts it. */
export class ServiceAccountVolume {
  /** loadFromCluster's path prefix: the volume is at `<prefix>/var/run/secrets/kubernetes.io/serviceaccount`. */
  readonly prefix = mkdtempSync(join(tmpdir(), 'sa-'));
  readonly dir = join(this.prefix, SERVICE_ACCOUNT_DIR);

  constructor() {
    mkdirSync(this.dir, { recursive: true });
  }

  file(name: 'token' | 'ca.crt' | 'namespace'): string {
    return join(this.dir, name);
  }

  /** Writes a file as the kubelet does: a new file renamed over the old one, never half written. */
  write(name: 'token' | 'ca.crt' | 'namespace', text: string): void {
    const next = `${this.file(name)}.next`;
    writeFileSync(next, text);
    renameSync(next, this.file(name));
  }

  /** The token the API server accepts now: the file's content, read for each request. */
  token(): string {
    return readFileSync(this.file('token'), 'utf8');
  }
}
