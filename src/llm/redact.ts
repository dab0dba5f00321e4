/**
 * Redaction of secrets and personal data before any text leaves the process for a model.
 *
 * Each rule is a regex whose named group `secret` (or, without one, the whole match) is replaced by
 * `[REDACTED:<kind>]`; the groups around it stay, so `password=` and `Bearer ` remain readable.
 * Rules run in table order: specific formats first, so that a key inside a URL or a `password=`
 * value is counted once under its real kind. Every regex is linear (no nested quantifiers).
 */

/** How many values of each kind were replaced. */
export type RedactionReceipt = Record<string, number>;

export interface Redacted {
  text: string;
  receipt: RedactionReceipt;
}

interface Rule {
  kind: string;
  pattern: RegExp;
  /** Extra check on the secret, for formats whose shape alone would also match ordinary words. */
  accept?: (secret: string) => boolean;
}

const PLACEHOLDER = '[REDACTED:';

const hasDigitAndUpper = (s: string): boolean => /\d/.test(s) && /[A-Z]/.test(s);

/** Key names whose value is a secret in `key=value`, `key: value` and JSON forms. */
const SECRET_KEYS =
  'password|passwd|secret|client[_.-]?secret|secret[_.-]?(?:access[_.-]?)?key|api[_.-]?key|access[_.-]?token|auth[_.-]?token|refresh[_.-]?token';

/** The table, in the order the rules run. */
export const REDACTION_RULES: readonly Rule[] = [
  {
    kind: 'private-key',
    // Whole PEM blocks, also the one-line JSON form with literal "\n" (GCP service-account files).
    pattern:
      // The body does not run into another BEGIN: otherwise every BEGIN without an END after it
      // scans the rest of the text again (quadratic). A BEGIN without an END is the next rule's.
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?:(?!-----BEGIN )[\s\S])*?-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/g,
  },
  // A BEGIN line whose END is not in this text (the selector cuts blocks apart): hide the rest.
  { kind: 'private-key', pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----.*/g },
  { kind: 'gcp-private-key-id', pattern: /(?<k>"private_key_id"\s*:\s*")(?<secret>[a-f0-9]{40})"/g },
  { kind: 'gcp-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'aws-access-key-id', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  {
    kind: 'aws-secret-access-key',
    pattern:
      /(?<k>(?:aws_?secret_?(?:access_?)?key|secretAccessKey|fs\.s3a?\.secret\.key)["']?\s*[:=]\s*["']?)(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
  },
  {
    kind: 'azure-key',
    pattern:
      /(?<k>\b(?:AccountKey|SharedAccessKey|SharedAccessSignature|SharedSecretValue)=)(?<secret>[^;\s"']+)/g,
  },
  { kind: 'azure-sas-signature', pattern: /(?<k>[?&]sig=)(?<secret>[A-Za-z0-9%+/=]{20,})/g },
  { kind: 'slack-token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'slack-token', pattern: /\bxapp-\d-[A-Za-z0-9-]{10,}/g },
  {
    kind: 'slack-webhook',
    pattern:
      /(?<k>https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)(?<secret>[A-Za-z0-9/_-]+)/g,
  },
  { kind: 'github-token', pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/g },
  { kind: 'github-token', pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/g },
  {
    kind: 'openai-key',
    pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/g,
    accept: hasDigitAndUpper,
  },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'bearer-token', pattern: /(?<k>\bBearer\s+)(?<secret>[A-Za-z0-9._~+/=-]{8,})/gi },
  { kind: 'basic-auth', pattern: /(?<k>\bAuthorization\s*[:=]\s*Basic\s+)(?<secret>[A-Za-z0-9+/=]{8,})/gi },
  {
    kind: 'url-password',
    // scheme://user:password@host: the user stays, the password goes.
    // The scheme is bounded: unbounded, a long dotted word costs quadratic time before "://".
    pattern: /(?<k>\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@]+:)(?<secret>[^\s@/]+)(?=@)/gi,
  },
  {
    kind: 'jdbc-password',
    // Oracle thin form jdbc:oracle:thin:user/password@host. The password stops at another "jdbc:", or
    // every URL without an "@" after it scans the rest of the text again (quadratic).
    pattern: /(?<k>\bjdbc:oracle:thin:[^\s/:@]+\/)(?<secret>(?:(?!jdbc:)[^\s@])+)(?=@)/gi,
  },
  {
    kind: 'password',
    // password=..., "password": "...", ;password=...; (JDBC), spark.*.secret=..., API_KEY: ...
    pattern: new RegExp(
      `(?<k>(?:\\b|_)(?:${SECRET_KEYS})["']?\\s*[:=]\\s*["']?)(?<secret>[^\\s"';&,)}]+)`,
      'gi',
    ),
  },
  { kind: 'email', pattern: /(?<k>mailto:)(?<secret>[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})/g },
  {
    kind: 'email',
    // Not after "/" or ":" so that akka.tcp://flink@jobmanager.svc and URL user-info are left alone.
    pattern: /(?<![\w.%+\-/:])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g,
  },
];

function applyRule(text: string, rule: Rule, receipt: RedactionReceipt): string {
  return text.replace(rule.pattern, (...args: unknown[]) => {
    const match = args[0] as string;
    const groups = args[args.length - 1] as Record<string, string | undefined> | undefined;
    const secret = (typeof groups === 'object' && groups?.secret) || match;
    // Never re-redact: a placeholder holds a ':' that URL and key=value rules would otherwise take.
    if (match.includes(PLACEHOLDER)) return match;
    if (rule.accept && !rule.accept(secret)) return match;
    receipt[rule.kind] = (receipt[rule.kind] ?? 0) + 1;
    const keep = typeof groups === 'object' ? (groups?.k ?? '') : '';
    const tail = typeof groups === 'object' && groups?.secret ? match.slice(keep.length + secret.length) : '';
    return `${keep}${PLACEHOLDER}${rule.kind}]${tail}`;
  });
}

/** Replaces every secret the rules know; the receipt says how many of each kind. */
export function redact(text: string, rules: readonly Rule[] = REDACTION_RULES): Redacted {
  const receipt: RedactionReceipt = {};
  let out = text;
  for (const rule of rules) out = applyRule(out, rule, receipt);
  return { text: out, receipt };
}

/** Adds one receipt's counts into another (several texts redacted for one request). */
export function mergeReceipts(into: RedactionReceipt, from: RedactionReceipt): RedactionReceipt {
  for (const [kind, count] of Object.entries(from)) into[kind] = (into[kind] ?? 0) + count;
  return into;
}
