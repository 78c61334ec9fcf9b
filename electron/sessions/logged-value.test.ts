import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { secretPathReason } from '../checkpoints';
import { callSecretReason } from './logged-record';
import { condenseResult, condenseValue, previewChars } from './logged-value';

const awsSecret = ['wJalrXUtnFEMI', 'K7MDENG', 'bPxRfiCYEXAMPLEKEY'].join('/');

describe('what a session keeps of a call', () => {
  it('keeps metadata whole and a long content as its size, digest and a short masked preview', () => {
    const content = `AWS_SECRET_ACCESS_KEY=${awsSecret}\n${'x'.repeat(200 * 1024)}`;
    const kept = condenseValue({ path: 'src/big.txt', content }) as { path: string; content: Record<string, unknown> };
    expect(kept.path).toBe('src/big.txt');
    expect(kept.content).toMatchObject({
      kind: 'elided-text',
      reason: 'long',
      chars: content.length,
      bytes: Buffer.byteLength(content),
      sha256: createHash('sha256').update(content).digest('hex'),
    });
    expect(String(kept.content['preview'])).toMatch(/^AWS_SECRET_ACCESS_KEY=\[masked\]\nx+$/u);
    expect(String(kept.content['preview']).length).toBeLessThanOrEqual(previewChars);
    expect(JSON.stringify(kept).length).toBeLessThan(1024);
    // Condensing what is condensed changes nothing (old and new logs load the same way).
    expect(condenseValue(kept)).toEqual(kept);
  });

  it('keeps nothing but sizes of what goes to or comes from a secret path, not even a preview or a digest', () => {
    const kept = condenseValue({ path: '.env', content: `AWS_SECRET_ACCESS_KEY=${awsSecret}` }, { isSecret: true });
    expect(kept).toEqual({ path: '.env', content: { kind: 'elided-text', reason: 'secret', chars: 62, bytes: 62 } });
    const read = condenseResult(
      { ok: true, value: { path: '/w/.env', content: '1\tTOKEN=abc', total_lines: 1 } },
      { isSecret: true },
    );
    expect(JSON.stringify(read)).not.toContain('abc');
    expect(read).toEqual({
      ok: true,
      value: {
        path: '/w/.env',
        content: { kind: 'elided-text', reason: 'secret', chars: 11, bytes: 11 },
        total_lines: 1,
      },
    });
  });

  it('keeps an error message a string, masked and capped, so the result stays a valid result', () => {
    const failed = condenseResult({
      ok: false,
      error: {
        code: 'no_match',
        message: `not found: password=${awsSecret} ${'y'.repeat(10_000)}`,
        details: { closest: 'z'.repeat(5000) },
      },
    });
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.error.message).toMatch(
      /^not found: password=\[masked\] y+\n\[… \d+ more characters not kept in the session log\]$/u,
    );
    expect(failed.error.details?.['closest']).toMatchObject({ kind: 'elided-text', chars: 5000 });
  });

  it('recognises secret paths: .env*, keys, credential files and folders, relative to the root', () => {
    for (const secret of [
      '.env',
      'app/.env.local',
      'deploy/server.key',
      'certs/tls.pem',
      'id_ed25519',
      '.npmrc',
      'config/credentials.json',
      '.aws/config',
      'home/.ssh/known_hosts',
      'prod.env',
    ]) {
      expect(secretPathReason(secret), secret).toBeDefined();
    }
    for (const ordinary of ['src/env.ts', 'README.md', 'keys/index.ts', 'id_ed25519.pub', 'environment.yml']) {
      expect(secretPathReason(ordinary), ordinary).toBeUndefined();
    }
    // A workspace that lives under a folder with a secret-looking name is judged from its root.
    expect(
      callSecretReason({
        arguments: { path: 'a.txt' },
        resolved: [{ absolute: '/home/u/.aws-tools/ws/a.txt', root: '/home/u/.aws-tools/ws' }],
      }),
    ).toBeUndefined();
    expect(
      callSecretReason({ arguments: { path: 'x' }, resolved: [{ absolute: '/w/.env.prod', root: '/w' }] }),
    ).toMatch(/environment file/u);
  });
});
