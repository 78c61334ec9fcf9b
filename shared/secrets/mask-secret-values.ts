/**
 * Values that look like secrets, in the common key formats, and the one way they are masked in
 * every preview Vigil keeps or shows (session logs, the transcript, session cards, approvals).
 * Masking keeps what helps a person recognise the value (a token's type prefix, the name it was
 * assigned to) and drops the secret part. It errs towards masking: a preview loses a few
 * characters, never a credential.
 */

/** What replaces the secret part of a value. */
export const maskedMark = '[masked]';

interface SecretFormat {
  readonly name: string;
  readonly pattern: RegExp;
  /** Builds the replacement from the match's groups; default: the whole match becomes the mark. */
  readonly replace?: (match: string, ...groups: string[]) => string;
}

const keepFirst = (match: string, prefix: string): string => `${prefix}${maskedMark}`;

/** The formats, most specific first (a PEM block before the assignments inside it). */
const secretFormats: readonly SecretFormat[] = [
  {
    name: 'private key block',
    // A preview may cut the block short: mask to its end, or to the end of the text (or of the quoted string it is in).
    pattern:
      /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----[^"]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?=")|$)/gu,
    replace: (_match, kind) => `-----BEGIN ${kind}----- ${maskedMark} -----END ${kind}-----`,
  },
  { name: 'AWS access key id', pattern: /\b((?:AKIA|ASIA|ABIA|ACCA|AROA|AIDA))[0-9A-Z]{16}\b/gu, replace: keepFirst },
  { name: 'GitHub token', pattern: /\b(gh[pousr]_)[A-Za-z0-9]{30,}\b/gu, replace: keepFirst },
  { name: 'GitHub fine-grained token', pattern: /\b(github_pat_)[A-Za-z0-9_]{30,}\b/gu, replace: keepFirst },
  { name: 'GitLab token', pattern: /\b(glpat-)[A-Za-z0-9_-]{20,}/gu, replace: keepFirst },
  { name: 'Slack token', pattern: /\b(xox[abposr]-)[A-Za-z0-9-]{10,}/gu, replace: keepFirst },
  { name: 'Slack webhook', pattern: /(hooks\.slack\.com\/services\/)[A-Za-z0-9/_-]{10,}/gu, replace: keepFirst },
  {
    name: 'Anthropic or OpenAI key',
    pattern: /\b(sk-(?:ant-(?:api\d\d-)?|proj-|svcacct-|admin-)?)[A-Za-z0-9_-]{20,}/gu,
    replace: keepFirst,
  },
  { name: 'Stripe key', pattern: /\b((?:sk|rk|pk)_(?:live|test)_)[A-Za-z0-9]{16,}\b/gu, replace: keepFirst },
  { name: 'Google API key', pattern: /\b(AIza)[0-9A-Za-z_-]{35}/gu, replace: keepFirst },
  { name: 'npm token', pattern: /\b(npm_)[A-Za-z0-9]{36}\b/gu, replace: keepFirst },
  { name: 'PyPI token', pattern: /\b(pypi-)[A-Za-z0-9_-]{50,}/gu, replace: keepFirst },
  { name: 'Hugging Face token', pattern: /\b(hf_)[A-Za-z0-9]{30,}\b/gu, replace: keepFirst },
  { name: 'JSON web token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/gu },
  {
    name: 'password in a URL',
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@'"]+:)([^\s@/'"]+)(@)/giu,
    replace: (_match, before, _password, at) => `${before}${maskedMark}${at}`,
  },
  {
    name: 'authorization header value',
    pattern: /\b((?:Bearer|Basic|Token)\s+)[A-Za-z0-9._~+/=-]{12,}/gu,
    replace: keepFirst,
  },
  {
    name: 'secret assignment',
    // NAME=value, NAME: value, "name": "value" where the name says it holds a secret (not a call: `password: read()`).
    pattern:
      /((?:^|[^A-Za-z0-9])[A-Za-z0-9_.-]*(?:SECRET|PASSWORD|PASSWD|PASSPHRASE|TOKEN|API[_-]?KEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY|CLIENT[_-]?SECRET|CREDENTIALS?|AUTH[_-]?KEY)[A-Za-z0-9_.-]*["']?\s*[:=]\s*["']?)([^\s"'`,;(){}<>$]{8,})(?=$|[\s"'`,;)}<>])/gimu,
    replace: (_match, before) => `${before}${maskedMark}`,
  },
];

/** The names of the formats recognised, for documentation and error messages. */
export const secretFormatNames: readonly string[] = secretFormats.map((format) => format.name);

/**
 * What every format above needs to find in a text before it can match there: its fixed prefix (a
 * token's type, `://`, `-----BEGIN `, an authorization scheme) or, for an assignment, a name that
 * says it holds a secret (case-insensitive with Unicode folding, as the format itself matches). A
 * text with none of them holds no secret in any format: masking it would change nothing.
 */
const secretHints = [
  /AKIA|ASIA|ABIA|ACCA|AROA|AIDA|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|hooks\.slack\.com\/services\/|sk-|[srp]k_(?:live|test)_|AIza|npm_|pypi-|hf_|eyJ|:\/\/|Bearer|Basic|Token|-----BEGIN /u,
  /SECRET|PASSWORD|PASSWD|PASSPHRASE|TOKEN|API[_-]?KEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY|CREDENTIAL|AUTH[_-]?KEY/iu,
];

/** The text with every value that looks like a secret replaced by `[masked]` (type prefixes and names kept). */
export function maskSecretValues(text: string): string {
  // Two quick looks instead of every format's: most texts (paths, ids, messages) have none of the hints.
  return secretHints.some((hint) => hint.test(text)) ? maskEveryFormat(text) : text;
}

/** `maskSecretValues` without the quick look first: every format tried in turn (what the quick look must agree with). */
export function maskEveryFormat(text: string): string {
  let masked = text;
  for (const format of secretFormats) {
    const { replace } = format;
    masked =
      replace === undefined ? masked.replace(format.pattern, maskedMark) : masked.replace(format.pattern, replace);
  }
  return masked;
}

/** Whether the text holds a value that looks like a secret. */
export function hasSecretValue(text: string): boolean {
  return maskSecretValues(text) !== text;
}
