import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNS_OVER_HTTPS } from '../../src/connectors/sns-https.ts';

// What the alert receivers' SNS transport does with what a host answers; the receivers only ever
// hand it an https URL on an SNS host (test/alerts covers that check), so loopback stands in here.
let server: Server;
let base = '';
let endlessWrites = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/cert.pem')
      return res.end('-----BEGIN CERTIFICATE-----\nMII\n-----END CERTIFICATE-----\n');
    if (req.url === '/moved.pem') return res.writeHead(302, { location: '/cert.pem' }).end();
    if (req.url === '/endless.pem') {
      res.writeHead(200);
      const more = () => {
        endlessWrites++;
        while (res.write(Buffer.alloc(16 * 1024, 65))) endlessWrites++;
      };
      res.on('drain', more);
      more();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the SNS transport serve hands the alert receivers', () => {
  it('reads a certificate', async () => {
    await expect(SNS_OVER_HTTPS.fetchCertificate(`${base}/cert.pem`)).resolves.toContain('BEGIN CERTIFICATE');
  });

  it('stops an endless answer at 64 KiB while reading it, and says so', async () => {
    await expect(SNS_OVER_HTTPS.fetchCertificate(`${base}/endless.pem`)).rejects.toThrow(
      /^127\.0\.0\.1 answered more than 65536 bytes$/,
    );
    // The server was still writing when the read stopped: the cap did not wait for an end.
    expect(endlessWrites).toBeGreaterThan(4);
  });

  it('follows no redirect and names a refusal by its status', async () => {
    await expect(SNS_OVER_HTTPS.fetchCertificate(`${base}/moved.pem`)).rejects.toThrow();
    await expect(SNS_OVER_HTTPS.confirm(`${base}/missing`)).rejects.toThrow(/^127\.0\.0\.1 answered 404$/);
  });
});
