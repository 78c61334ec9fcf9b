import { describe, expect, it } from 'vitest';
import { expandBraces, resolveTargets } from './command-targets';
import type { ShellWord } from './shell';

const place = { cwd: '/work/project', home: '/home/ada', platform: 'linux' as const };
const word = (text: string, extra: Partial<ShellWord> = {}): ShellWord => ({
  kind: 'word',
  text,
  isQuoted: false,
  isDynamic: false,
  hasGlob: false,
  substitutions: [],
  ...extra,
});

describe('expandBraces', () => {
  it('expands lists, nested lists and ranges as bash does, and gives up past 64 words', () => {
    expect(expandBraces('~/.{ssh,aws}/config')).toEqual(['~/.ssh/config', '~/.aws/config']);
    expect(expandBraces('a{b,c{d,e}}f')).toEqual(['abf', 'acdf', 'acef']);
    expect(expandBraces('log{1..3}')).toEqual(['log1', 'log2', 'log3']);
    expect(expandBraces('{x}')).toEqual(['{x}']);
    expect(expandBraces('{1..1000}')).toBeUndefined();
    expect(expandBraces('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}')).toBeUndefined();
  });
});

describe('resolveTargets', () => {
  it('resolves a word in every directory a command may run in, unknown where the directory is', () => {
    expect(
      resolveTargets(word('a'), ['/work/project', '/tmp', undefined], place).map(
        (target) => target.path ?? `?${target.text}`,
      ),
    ).toEqual(['/work/project/a', '/tmp/a', '?a']);
    expect(resolveTargets(word('/etc/x'), [undefined], place).map((target) => target.path)).toEqual(['/etc/x']);
  });

  it("expands braces before ~, keeps a glob's whole pattern, and leaves run-time words unknown", () => {
    expect(resolveTargets(word('~/{a,b}', { isDynamic: true }), ['/x'], place).map((target) => target.path)).toEqual([
      '/home/ada/a',
      '/home/ada/b',
    ]);
    expect(resolveTargets(word('../.ss?/id_rsa', { hasGlob: true }), ['/home/ada/proj'], place)).toEqual([
      { text: '../.ss?/id_rsa', path: '/home/ada', isGlob: true, pattern: '/home/ada/.ss?/id_rsa' },
    ]);
    expect(resolveTargets(word('$DIR/a', { isDynamic: true }), ['/x'], place)).toEqual([
      { text: '$DIR/a', isGlob: false },
    ]);
    expect(resolveTargets(word("'{a,b}'", { isQuoted: true }), ['/x'], place).map((target) => target.path)).toEqual([
      "/x/'{a,b}'",
    ]);
  });
});
