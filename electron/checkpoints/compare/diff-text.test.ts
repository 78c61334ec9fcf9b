import { describe, expect, it } from 'vitest';
import { createPathScope, normalizeRelativePath } from './diff-path-scope';
import { defaultTextDiffLimits, diffText, isBinaryContent } from './diff-text';

const bytes = (text: string): Uint8Array => Buffer.from(text, 'utf8');

describe('diffText', () => {
  it('gives unified hunks with git-style line counts', () => {
    const diff = diffText(bytes('a\nb\nc\n'), bytes('a\nB\nc\nd\n'));
    expect(diff).toMatchObject({ kind: 'text', additions: 2, deletions: 1, omittedLines: 0 });
    expect(diff.hunks).toEqual([
      { oldStart: 1, oldLines: 3, newStart: 1, newLines: 4, lines: [' a', '-b', '+B', ' c', '+d'] },
    ]);
  });

  it('does not count the "no newline at end of file" marker as a change', () => {
    const diff = diffText(bytes('same'), bytes('same\n'));
    expect(diff.additions).toBe(1);
    expect(diff.deletions).toBe(1);
    expect(diff.hunks[0]?.lines).toContain('\\ No newline at end of file');
  });

  it('marks content with a NUL byte, or that is not UTF-8, as binary, without hunks', () => {
    expect(isBinaryContent(Uint8Array.from([0x61, 0x00, 0x62]))).toBe(true);
    expect(isBinaryContent(Uint8Array.from([0xc3, 0x28]))).toBe(true);
    expect(isBinaryContent(bytes('héllo ✓\n'))).toBe(false);
    expect(diffText(Uint8Array.from([1, 0, 2]), bytes('text\n'))).toMatchObject({
      kind: 'binary',
      hunks: [],
      additions: 0,
      deletions: 0,
    });
  });

  it('caps the lines it returns and counts the rest', () => {
    const old = Array.from({ length: 500 }, (_, index) => `line ${index}`).join('\n');
    const changed = Array.from({ length: 500 }, (_, index) =>
      index % 10 === 0 ? `LINE ${index}` : `line ${index}`,
    ).join('\n');
    const full = diffText(bytes(old), bytes(changed));
    const capped = diffText(bytes(old), bytes(changed), { ...defaultTextDiffLimits, maxLines: 25 });
    const shown = capped.hunks.reduce((sum, hunk) => sum + hunk.lines.length, 0);
    const all = full.hunks.reduce((sum, hunk) => sum + hunk.lines.length, 0);
    expect(shown).toBe(25);
    expect(capped.omittedLines).toBe(all - 25);
    expect(capped.additions).toBe(full.additions);
  });

  it('does not diff sides over the size cap', () => {
    expect(diffText(bytes('x'.repeat(100)), bytes('y'), { ...defaultTextDiffLimits, maxBytes: 50 }).kind).toBe(
      'too-large',
    );
  });

  it('shows a file rewritten beyond what jsdiff explores as replaced whole', () => {
    const old = Array.from({ length: 30_000 }, (_, index) => `a${index}`).join('\n');
    const replaced = Array.from({ length: 30_000 }, (_, index) => `b${index}`).join('\n');
    const diff = diffText(bytes(old), bytes(replaced), { ...defaultTextDiffLimits, maxLines: 10 });
    expect(diff).toMatchObject({ kind: 'text', additions: 30_000, deletions: 30_000, omittedLines: 59_990 });
  });
});

describe('createPathScope', () => {
  it('normalizes paths and refuses the ones that leave the directory', () => {
    expect(normalizeRelativePath('src//a/./b.ts')).toBe('src/a/b.ts');
    expect(normalizeRelativePath('src/x/../b.ts')).toBe('src/b.ts');
    expect(normalizeRelativePath('folder/')).toBe('folder');
    for (const bad of ['', '/abs', '..', '../x', 'a/../../x', '.', 'a\0b']) {
      expect(() => normalizeRelativePath(bad), bad).toThrow(
        expect.objectContaining({ code: 'invalid_request' }) as Error,
      );
    }
  });

  it('covers named files and everything under named folders, and enters only their ancestors', () => {
    const scope = createPathScope(['src/app.ts', 'docs']);
    expect(scope.covers('src/app.ts')).toBe(true);
    expect(scope.covers('docs/a/b.md')).toBe(true);
    expect(scope.covers('src/other.ts')).toBe(false);
    expect(scope.enters('')).toBe(true);
    expect(scope.enters('src')).toBe(true);
    expect(scope.enters('lib')).toBe(false);
    expect(scope.names('docs')).toBe(true);
    expect(scope.names('docs/a/b.md')).toBe(false);
    const everything = createPathScope();
    expect(everything.covers('anything/at/all')).toBe(true);
  });
});
