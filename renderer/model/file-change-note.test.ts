import { describe, expect, it } from 'vitest';
import { fileChangeNote } from './file-change-note';

const text = { kind: 'text', additions: 0, deletions: 0 } as const;

describe('file change notes', () => {
  it('names a mode-only change instead of "+0 −0"', () => {
    expect(fileChangeNote({ ...text, status: 'modified', oldMode: '100644', newMode: '100755' })).toBe(
      'mode 644 → 755',
    );
    expect(fileChangeNote({ ...text, status: 'modified', oldMode: '100755', newMode: '100644', additions: 2 })).toBe(
      'mode 755 → 644, and its content',
    );
    expect(
      fileChangeNote({ ...text, status: 'modified', oldMode: '100644', newMode: '100644', additions: 1 }),
    ).toBeUndefined();
  });

  it('says where a symlink points, and when a file became one', () => {
    expect(
      fileChangeNote({
        ...text,
        kind: 'symlink',
        status: 'modified',
        oldMode: '120000',
        newMode: '120000',
        linkTargets: { old: 'a.ts', new: 'b.ts' },
      }),
    ).toBe('link: a.ts → b.ts');
    expect(
      fileChangeNote({ ...text, kind: 'symlink', status: 'added', newMode: '120000', linkTargets: { new: 'src/x' } }),
    ).toBe('link → src/x');
    expect(
      fileChangeNote({
        ...text,
        kind: 'symlink',
        status: 'type-changed',
        oldMode: '100644',
        newMode: '120000',
        linkTargets: { new: 'real.txt' },
      }),
    ).toBe('file → link to real.txt');
    expect(
      fileChangeNote({
        ...text,
        kind: 'symlink',
        status: 'type-changed',
        oldMode: '120000',
        newMode: '100644',
        linkTargets: { old: 'x' },
      }),
    ).toBe('link to x → file');
    expect(
      fileChangeNote({
        ...text,
        kind: 'symlink',
        status: 'added',
        newMode: '120000',
        linkTargets: { new: 'evil\u001b[2J' },
      }),
    ).toBe('link → evil\\u001b[2J');
  });
});
