import { describe, expect, it } from 'vitest';
import { matchesCommandPattern } from './command-pattern';
import { globCouldReach, globsMayOverlap, matchesGlob } from './glob-pattern';
import type { ShellWord } from './shell';

const words = (...texts: string[]): ShellWord[] =>
  texts.map((text) => ({ kind: 'word', text, isQuoted: false, isDynamic: false, hasGlob: false, substitutions: [] }));

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
    expect(
      matchesCommandPattern({ program: 'git', args: words('push', 'origin', 'main', '--force') }, 'git push --force'),
    ).toBe(true);
    expect(matchesCommandPattern({ program: 'git', args: words('--force', 'push') }, 'git push --force')).toBe(false);
    expect(matchesCommandPattern({ program: 'git', args: words('gc', '--prune=now') }, 'git gc --prune*')).toBe(true);
    expect(matchesCommandPattern({ program: 'rm', args: words('-fr', 'x') }, 'rm -*r*')).toBe(true);
    expect(matchesCommandPattern({ program: 'sudo', args: [] }, 'sudo')).toBe(true);
    expect(matchesCommandPattern({ program: 'npm', args: words('test') }, 'npm publish')).toBe(false);
  });
});

describe('globCouldReach', () => {
  it('says whether a glob could name a location or something inside it', () => {
    expect(globCouldReach('/home/ada/.ss?/id_rsa', '/home/ada/.ssh')).toBe(true);
    expect(globCouldReach('/home/ada/.s*', '/home/ada/.ssh')).toBe(true);
    expect(globCouldReach('/home/ada/.vig*/serve.json', '/home/ada/.vigil')).toBe(true);
    expect(globCouldReach('/home/ada/**/id_rsa', '/home/ada/.ssh')).toBe(true);
    expect(globCouldReach('/home/ada/[.]ssh/*', '/home/ada/.ssh')).toBe(true);
    expect(globCouldReach('/home/ada/projects/*', '/home/ada/.ssh')).toBe(false);
    expect(globCouldReach('/home/*', '/home/ada/.ssh')).toBe(false);
  });
});

describe('globsMayOverlap', () => {
  it('says whether two globs could meet, one holding the other counting', () => {
    expect(globsMayOverlap('secrets/**', 'secrets/*.pem')).toBe(true);
    expect(globsMayOverlap('secrets/**', 'sec*')).toBe(true);
    expect(globsMayOverlap('secrets/key.pem', '*/key.pem')).toBe(true);
    expect(globsMayOverlap('secrets/**', 'src/*.ts')).toBe(false);
    expect(globsMayOverlap('*.pem', 'secrets/*.pem')).toBe(false);
  });
});
