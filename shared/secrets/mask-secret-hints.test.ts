import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskEveryFormat, maskSecretValues } from './mask-secret-values';

/** Pieces that each format is made of (prefixes, names, separators, value characters), and look-alikes. */
const pieces = [
  'AKIA',
  'ASIA',
  'ABIA',
  'ACCA',
  'AROA',
  'AIDA',
  'akia',
  'IOSFODNN7EXAMPLE',
  'ghp_',
  'gho_',
  'ghs_',
  'github_pat_',
  'glpat-',
  'xoxb-',
  'xoxp-',
  'hooks.slack.com/services/',
  'sk-',
  'sk-ant-api03-',
  'sk-proj-',
  'sk_live_',
  'rk_test_',
  'pk_live_',
  'AIza',
  'npm_',
  'pypi-',
  'hf_',
  'eyJ',
  'eyJhbGciOiJIUzI1NiJ9',
  '.',
  '://',
  'postgres://',
  'app:',
  '@',
  'Bearer ',
  'Basic ',
  'Token ',
  'bearer ',
  '-----BEGIN ',
  'RSA ',
  'PRIVATE KEY',
  '-----',
  '-----END ',
  'secret',
  'SECRET',
  'Password',
  'passwd',
  'PassPhrase',
  'token',
  'api_key',
  'API-KEY',
  'apikey',
  'access_key',
  'private-key',
  'client_secret',
  'credentials',
  'auth_key',
  '\u017f',
  '\u212a',
  'pa\u017f\u017fword',
  'api_\u212aey',
  'to\u212aen',
  '=',
  ': ',
  '"',
  "'",
  ' ',
  '\n',
  'x9Y8z7W6v5',
  'a1B2c3D4e5',
  'hunter2hunter2',
  '/tmp/project/src',
  'checkpoint',
];

const value = (length: number): string => 'a1B2c3D4e5F6g7H8i9J0'.repeat(4).slice(0, length);

/** One text per format (and per secret name), each holding no other format's hint. */
const oneHintEach = [
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA',
  ...['AKIA', 'ASIA', 'ABIA', 'ACCA', 'AROA', 'AIDA'].map((prefix) => `id ${prefix}IOSFODNN7EXAMPLE`),
  `ghp_${value(36)}`,
  `github_pat_${value(30)}`,
  `glpat-${value(20)}`,
  `xoxb-${value(12)}`,
  `hooks.slack.com/services/${value(24)}`,
  `sk-ant-api03-${value(40)}`,
  `rk_test_${value(20)}`,
  `AIza${value(35)}`,
  `npm_${value(36)}`,
  `pypi-${value(60)}`,
  `hf_${value(34)}`,
  `eyJ${value(10)}.eyJ${value(10)}.${value(12)}`,
  'postgres://app:hunter2hunter2@db',
  `Authorization: Bearer ${value(20)}`,
  `Basic ${value(20)}`,
  ...['secret', 'Password', 'passwd', 'PassPhrase', 'token', 'API-KEY', 'access_key', 'private-key', 'credentials'].map(
    (name) => `${name}=${value(12)}`,
  ),
  `auth_key: ${value(12)}`,
];

describe('the quick look before masking', () => {
  it.each(oneHintEach)('lets each format through to be masked: %s', (text) => {
    expect(maskEveryFormat(text)).not.toBe(text);
    expect(maskSecretValues(text)).toBe(maskEveryFormat(text));
  });

  it("masks exactly what trying every format masks, on texts built from the formats' own pieces", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 6 }), fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/)),
          { maxLength: 16 },
        ),
        (parts) => {
          const text = parts.join('');
          expect(maskSecretValues(text)).toBe(maskEveryFormat(text));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('still masks a secret named with letters that fold to ASCII (Unicode case folding)', () => {
    // The assignment format matches case-insensitively with Unicode folding: so must the quick look.
    const text = 'pa\u017f\u017fword: correct-horse-battery';
    expect(maskEveryFormat(text)).toBe('pa\u017f\u017fword: [masked]');
    expect(maskSecretValues(text)).toBe('pa\u017f\u017fword: [masked]');
  });
});
