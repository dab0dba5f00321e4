import { verify, X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { validated } from './payloads/parsed.ts';

// An SNS message as an HTTPS subscription receives it (Amazon SNS Developer Guide, "Amazon SNS
// message and JSON formats"; "Verifying the signatures of Amazon SNS messages").
const Envelope = z.object({
  Type: z.enum(['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation']),
  MessageId: z.string().min(1),
  TopicArn: z.string().min(1),
  Message: z.string(),
  Timestamp: z.string(),
  SignatureVersion: z.enum(['1', '2']),
  Signature: z.string().min(1),
  SigningCertURL: z.string(),
  Subject: z.string().optional(),
  Token: z.string().optional(),
  SubscribeURL: z.string().optional(),
});
export type SnsMessage = z.infer<typeof Envelope>;

export function parseSnsEnvelope(json: unknown): SnsMessage {
  return validated(Envelope, json, 'an SNS message');
}

/** SNS signs with a certificate it serves from its own regional host, over HTTPS, as a .pem. */
const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

/** True when `url` is a certificate URL SNS would use; nothing else is ever fetched. */
export function isSnsCertificateUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const u = new URL(url);
  return (
    u.protocol === 'https:' &&
    SNS_HOST.test(u.hostname) &&
    u.port === '' &&
    !u.username &&
    !u.password &&
    !u.search &&
    u.pathname.endsWith('.pem')
  );
}

/** The fields each type signs, in byte order, as `name\nvalue\n` (Subject only when present). */
export function stringToSign(m: SnsMessage): string {
  const keys =
    m.Type === 'Notification'
      ? (['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'] as const)
      : (['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'] as const);
  return keys
    .filter((key) => m[key] !== undefined)
    .map((key) => `${key}\n${m[key]}\n`)
    .join('');
}

/**
 * How the verifier reaches SNS: serve hands over the real one (src/connectors/sns-https.ts, under the
 * connectors' fetch discipline); tests hand one that trusts a certificate they made.
 */
export interface SnsTransport {
  /** The PEM at an SNS certificate URL (already checked by isSnsCertificateUrl). */
  fetchCertificate(url: string): Promise<string>;
  /** GETs a ConfirmSubscription URL memdoctor built from a configured topic. */
  confirm(url: string): Promise<void>;
}

/** A certificate could not be had (SNS unreachable): the sender is answered 503 and retries. */
export class CertificateUnavailableError extends Error {}

/** Verifies SNS signatures; a certificate fetched once is kept (SNS signs with few, for long). */
export class SnsVerifier {
  readonly #certificates = new Map<string, X509Certificate>();
  constructor(
    private readonly transport: SnsTransport,
    private readonly now: () => number = Date.now,
  ) {}

  async #certificate(url: string): Promise<X509Certificate> {
    const kept = this.#certificates.get(url);
    if (kept) return kept;
    let pem: string;
    try {
      pem = await this.transport.fetchCertificate(url);
    } catch (error) {
      throw new CertificateUnavailableError(
        `the SNS signing certificate could not be fetched: ${(error as Error).message}`,
      );
    }
    const certificate = new X509Certificate(pem);
    // Only certificates issued to SNS are kept, however they were reached.
    if (!certificate.checkHost('sns.amazonaws.com'))
      throw new Error('the certificate is not issued to sns.amazonaws.com');
    if (this.#certificates.size >= 32) this.#certificates.clear();
    this.#certificates.set(url, certificate);
    return certificate;
  }

  /** True when the message is signed by SNS's certificate with its SignatureVersion (1: SHA1, 2: SHA256). */
  async verifies(m: SnsMessage): Promise<boolean> {
    if (!isSnsCertificateUrl(m.SigningCertURL)) return false;
    let certificate: X509Certificate;
    try {
      certificate = await this.#certificate(m.SigningCertURL);
    } catch (error) {
      if (error instanceof CertificateUnavailableError) throw error;
      return false;
    }
    const at = this.now();
    if (at < Date.parse(certificate.validFrom) || at > Date.parse(certificate.validTo)) return false;
    const algorithm = m.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256';
    return verify(
      algorithm,
      Buffer.from(stringToSign(m)),
      certificate.publicKey,
      Buffer.from(m.Signature, 'base64'),
    );
  }
}

/**
 * The ConfirmSubscription URL for a configured topic, built from the topic's own region and the
 * message's token: the SubscribeURL the payload carries is never fetched.
 */
export function confirmationUrl(topicArn: string, token: string): string | undefined {
  const [, partition, , region] = topicArn.split(':');
  if (!region || !/^[A-Za-z0-9]{1,2048}$/.test(token)) return undefined;
  const domain = partition === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com';
  const query = new URLSearchParams({ Action: 'ConfirmSubscription', TopicArn: topicArn, Token: token });
  return `https://sns.${region}.${domain}/?${query}`;
}
