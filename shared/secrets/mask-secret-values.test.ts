import { describe, expect, it } from 'vitest';
import { hasSecretValue, maskSecretValues } from './mask-secret-values';

// Shapes of real credentials, assembled at run time so no scanner mistakes this file for a leak.
const aws = ['AKIA', 'IOSFODNN7', 'EXAMPLE'].join('');
const awsSecret = ['wJalrXUtnFEMI', 'K7MDENG', 'bPxRfiCYEXAMPLEKEY'].join('/');
const github = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
const anthropic = `sk-ant-api03-${'x9Y8z7W6v5'.repeat(5)}`;
const slack = ['xoxb', '123456789012', 'abcdefABCDEF'.repeat(2)].join('-');
const stripe = ['sk', 'live', '4eC39HqLyjWDarjtT1zdp7dc'].join('_');
const google = ['AIza', 'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6q'].join('');
const jwt = ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiIxMjM0NTY3ODkwIn0', 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'].join(
  '.',
);

describe('masking values that look like secrets', () => {
  it.each([
    ['an AWS access key id', `key=${aws}`, 'key=AKIA[masked]'],
    ['an AWS secret in an env line', `AWS_SECRET_ACCESS_KEY=${awsSecret}`, 'AWS_SECRET_ACCESS_KEY=[masked]'],
    ['a GitHub token', `token ${github} end`, 'token ghp_[masked] end'],
    ['an Anthropic key', `"${anthropic}"`, '"sk-ant-api03-[masked]"'],
    ['a Slack token', slack, 'xoxb-[masked]'],
    ['a Stripe key', stripe, 'sk_live_[masked]'],
    ['a Google API key', google, 'AIza[masked]'],
    ['a JSON web token', `Cookie: session=${jwt}`, 'Cookie: session=[masked]'],
    ['a password in a URL', 'postgres://app:hunter2hunter2@db:5432/x', 'postgres://app:[masked]@db:5432/x'],
    ['a bearer token', 'Authorization: Bearer abcdefghijklmnop1234', 'Authorization: Bearer [masked]'],
    ['a JSON secret field', '{"client_secret": "s3cr3t-v4lue-123"}', '{"client_secret": "[masked]"}'],
    ['a YAML password', 'password: correct-horse-battery', 'password: [masked]'],
  ])('masks %s', (_name, text, masked) => {
    expect(maskSecretValues(text)).toBe(masked);
    expect(hasSecretValue(text)).toBe(true);
  });

  it('masks a private key block, even one cut short by a preview', () => {
    const block =
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\nafter';
    expect(maskSecretValues(block)).toBe(
      '-----BEGIN OPENSSH PRIVATE KEY----- [masked] -----END OPENSSH PRIVATE KEY-----\nafter',
    );
    expect(maskSecretValues('x\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA')).not.toContain('MIIEpAIBAAKCAQEA');
  });

  it('leaves ordinary text and code alone, and masking twice changes nothing more', () => {
    for (const text of [
      'const total = items.length;',
      'password: getPassword()',
      'tokenizer.split(text)',
      'rm -rf build && npm test',
      'see https://example.com/a/b',
    ]) {
      expect(maskSecretValues(text)).toBe(text);
    }
    const once = maskSecretValues(`A=${aws} B=${github}`);
    expect(maskSecretValues(once)).toBe(once);
  });
});
