import { createHash, createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

// Signature Version 4 as the AWS General Reference ("Create a signed AWS API request") defines it:
// a canonical request, a string to sign with the credential scope, and an HMAC chain from the
// secret key through date, region and service. Written here, apart from the SDK, so the fake checks
// the real client's signature instead of trusting it.

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([a-z0-9-]+)\/([a-z0-9-]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

export interface SignedBy {
  accessKeyId: string;
  region: string;
  service: string;
}

const sha256 = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

function canonicalRequest(
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  signed: string,
  body: string,
) {
  const lines = signed.split(';').map((name) => {
    const value = headers[name];
    const text = Array.isArray(value) ? value.join(',') : (value ?? '');
    return `${name}:${text.trim().replace(/\s+/g, ' ')}`;
  });
  const payload = (headers['x-amz-content-sha256'] as string | undefined) ?? sha256(body);
  return [method, path, '', ...lines, '', signed, payload].join('\n');
}

/**
 * Checks a request's SigV4 Authorization header against the secret key; returns who signed it for
 * which region and service, or why the signature does not hold.
 */
export function verifySigV4(
  request: { method: string; path: string; headers: IncomingHttpHeaders; body: string },
  secretKey: string,
): SignedBy | string {
  const auth = AUTH.exec(request.headers.authorization ?? '');
  if (!auth) return 'no SigV4 Authorization header';
  const [, accessKeyId = '', date = '', region = '', service = '', signed = '', signature] = auth;
  const amzDate = request.headers['x-amz-date'];
  if (typeof amzDate !== 'string' || !amzDate.startsWith(date))
    return 'X-Amz-Date missing or not the scope date';
  if (!signed.split(';').includes('host')) return 'the host header is not signed';
  const scope = `${date}/${region}/${service}/aws4_request`;
  const canonical = canonicalRequest(request.method, request.path, request.headers, signed, request.body);
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secretKey}`, date), region), service), 'aws4_request');
  const expected = createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
  return expected === signature
    ? { accessKeyId, region, service }
    : 'the signature does not match the request';
}
