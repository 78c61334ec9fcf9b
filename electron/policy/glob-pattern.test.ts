import { describe, expect, it } from 'vitest';
import { matchesCommandPattern } from './command-pattern';
import { matchesGlob } from './glob-pattern';
import type { ShellWord } from './shell-lexer';

const words = (...texts: string[]): ShellWord[] => texts.map((text) => ({ kind: 'word', text, isQuoted: false, isDynamic: false, hasGlob: false, substitutions: [] }));

describe('matchesGlob', () => {
  it('matches folders with **, names with * and ?, classes and alternatives', () => {
    expect(matchesGlob('secrets/a/b.pem', 'secrets/**')).toBe(true);
    expect(matchesGlob('src/deep/x.lock', '**/*.lock')).toBe(true);
    expect(matchesGlob('x.lock', '**/*.lock')).toBe(true);
    expect(matchesGlob('src/a.ts', 'src/*.ts')).toBe(true);
    expect(matchesGlob('src/sub/a.ts', 'src/*.ts')).toBe(false);
    expect(matchesGlob('a1.txt', 'a?.txt')).toBe(true);
    expect(matchesGlob('b.txt', '[ab].txt')).toBe(true);
    expect(matchesGlob('c.txt', '[!ab].txt')).toBe(true);
    expect(matchesGlob('.env.local', '{.env,.env.*}')).toBe(true);
    expect(matchesGlob('/abs/path/file', '/abs/**')).toBe(true);
    expect(matchesGlob('a+b(1).txt', 'a+b(1).txt')).toBe(true);
  });
});

describe('matchesCommandPattern', () => {
  it('matches the program and its arguments in order, each word a glob', () => {
    expect(matchesCommandPattern({ program: 'git', args: words('push', 'origin', 'main', '--force') }, 'git push --force')).toBe(true);
    expect(matchesCommandPattern({ program: 'git', args: words('--force', 'push') }, 'git push --force')).toBe(false);
    expect(matchesCommandPattern({ program: 'git', args: words('gc', '--prune=now') }, 'git gc --prune*')).toBe(true);
    expect(matchesCommandPattern({ program: 'rm', args: words('-fr', 'x') }, 'rm -*r*')).toBe(true);
    expect(matchesCommandPattern({ program: 'sudo', args: [] }, 'sudo')).toBe(true);
    expect(matchesCommandPattern({ program: 'npm', args: words('test') }, 'npm publish')).toBe(false);
  });
});
