import { describe, expect, it } from 'vitest';
import { analyzeCommand } from './analyze-command';

const place = { cwd: '/work/project', home: '/home/ada', platform: 'linux' as const };

/** Every path the command's file effects may hit, `?text` when only known at run time. */
function targets(command: string): string[] {
  return analyzeCommand(command, place).effects.flatMap((effect) =>
    effect.resolved.map((target) => target.path ?? `?${target.text}`),
  );
}

const isRefused = (command: string): boolean => analyzeCommand(command, place).hardline.length > 0;
const asks = (command: string): boolean => analyzeCommand(command, place).concerns.length > 0;

describe('analyzeCommand follows cd, pushd and popd', () => {
  it('refuses the hardline list wherever cd leads: home, /, system folders', () => {
    for (const command of [
      'cd ~ && rm -rf *',
      'cd && rm -rf *',
      'cd $HOME; rm -rf ./*',
      'cd /etc; rm -rf *',
      'pushd /; rm -rf *',
      'cd / && rm -rf *',
      'cd /; rm -fr -- *',
      'cd /usr && rm -rf .',
      'builtin cd / && rm -rf *',
      'cd /tmp && cd / && rm -rf *',
    ]) {
      expect([command, isRefused(command)]).toEqual([command, true]);
    }
    expect(isRefused('rm -rf *')).toBe(false);
  });

  it('resolves targets where the command runs after cd', () => {
    expect(targets('cd secrets && rm key.pem')).toEqual(['/work/project/secrets/key.pem']);
    expect(targets('cd .. && rm -rf proj')).toEqual(['/work/proj']);
    expect(targets('cd a && cd ../b && rm c')).toEqual(['/work/project/b/c']);
    expect(targets('cd /tmp/x && rm *.log')).toEqual(['/tmp/x']);
  });

  it('keeps both directories when cd may fail, and only the old one on the failure branch', () => {
    expect(targets('cd sub; rm a')).toEqual(['/work/project/sub/a', '/work/project/a']);
    expect(targets('cd sub || rm a')).toEqual(['/work/project/a']);
    expect(targets('cd sub && rm a || rm b')).toEqual([
      '/work/project/sub/a',
      '/work/project/b',
      '/work/project/sub/b',
    ]);
    expect(targets('! cd sub && rm a')).toEqual(['/work/project/a']);
    expect(targets('if cd sub; then rm a; fi')).toEqual(['/work/project/sub/a', '/work/project/a']);
    expect(targets('{ cd sub; } && rm a')).toEqual(['/work/project/sub/a']);
  });

  it('keeps cd inside subshells, pipeline stages, background jobs and substitutions', () => {
    expect(targets('(cd /tmp && rm a) && rm b')).toEqual(['/tmp/a', '/work/project/b']);
    expect(targets('cd /tmp | rm a')).toEqual(['/work/project/a']);
    expect(targets('cd /tmp & rm a')).toEqual(['/work/project/a']);
    expect(targets('echo $(cd /tmp) && rm a')).toEqual(['/work/project/a']);
    expect(isRefused('(cd /; ls); rm -rf *')).toBe(false);
  });

  it('runs substitutions, sh -c and eval where the shell is at that point', () => {
    expect(isRefused('cd /; echo $(rm -rf *)')).toBe(true);
    expect(isRefused('cd / && sh -c "rm -rf *"')).toBe(true);
    expect(isRefused("sh -c 'cd / && rm -rf *'")).toBe(true);
    expect(isRefused("eval 'cd /'; rm -rf *")).toBe(true);
    expect(isRefused("sh -c 'cd /'; rm -rf *")).toBe(false);
  });

  it('follows the pushd stack back with popd', () => {
    expect(targets('pushd sub && rm a && popd && rm b')).toEqual(['/work/project/sub/a', '/work/project/b']);
    expect(targets('popd && rm a')).toEqual(['/work/project/a']);
  });

  it('treats a directory it cannot know as unknown: relative targets ask, absolute ones are still judged', () => {
    for (const command of [
      'cd - && rm a',
      'cd $DIR && rm -rf build',
      'cd "$(git rev-parse --show-toplevel)" && rm -rf dist',
      'cd src/* && rm a',
      'pushd +1 && rm a',
      'source env.sh && rm -rf build',
      'for d in a b; do cd $d; rm -f x; done',
    ]) {
      expect([command, targets(command).some((target) => target.startsWith('?')), asks(command)]).toEqual([
        command,
        true,
        true,
      ]);
    }
    expect(isRefused('cd $DIR && rm -rf /')).toBe(true);
    expect(targets('cd $DIR && rm -f /work/project/a')).toEqual(['/work/project/a']);
  });

  it('follows a loop body that moves on each pass', () => {
    expect(isRefused('while true; do rm -rf *; cd /; done')).toBe(true);
    expect(targets('for f in a b; do rm -f x; cd ..; done')).toContain('?x');
  });

  it('resolves env -C / sudo -D directories, and knows find -execdir runs elsewhere', () => {
    expect(targets('env -C /tmp rm a')).toEqual(['/tmp/a']);
    expect(targets('sudo -D sub rm a')).toEqual(['/work/project/sub/a']);
    expect(analyzeCommand('find . -execdir sh -c "rm x" \\;', place).concerns.length).toBeGreaterThan(0);
  });

  it('does not ask about the cd commands agents run all day', () => {
    for (const command of [
      'cd src && npm test',
      'cd packages/app && rm -rf dist',
      'pushd sub >/dev/null && make && popd',
      'cd "$(git rev-parse --show-toplevel)" && git status',
    ]) {
      expect([command, analyzeCommand(command, place).concerns]).toEqual([command, []]);
    }
  });
});
