import { existsSync } from 'node:fs';
import path from 'node:path';
import { runGit, writeFiles } from './restore-fixtures';

/**
 * The brief's data-loss case: a repository at `dir` that tracks files Vigil's built-in names leave
 * out (`notes.log`, `db.sqlite`, `logo.png`, `build/out.js`) beside a `readme.md`, all committed.
 */
export function makeTrackedOddsClone(dir: string): void {
  runGit(['init', '-q', dir]);
  writeFiles(dir, {
    'notes.log': 'x',
    'db.sqlite': 'db',
    'logo.png': 'png',
    'readme.md': 'hi\n',
    'build/out.js': 'b\n',
  });
  runGit(['add', '-f', '-A'], { cwd: dir });
  runGit(['commit', '-q', '-m', 'i'], { cwd: dir });
}

/** `git ls-files -z` with its arguments, in `cwd`, as a list. */
function lsFiles(cwd: string, ...args: readonly string[]): string[] {
  return runGit(['ls-files', '-z', ...args], { cwd })
    .split('\0')
    .filter((rel) => rel !== '');
}

/**
 * What git says a checkpoint of `dir` must hold, by each repository's own rules: every file git
 * tracks there (and that is on disk) and every untracked file its ignore rules keep, for `dir`
 * (`isRepository`) and each repository inside it (`nested`, relative, outermost first), a nested
 * repository's files listed by its own git, never by the outer one's (which shows its folder only).
 */
export function expectedByGit(dir: string, nested: readonly string[], isRepository = true): string[] {
  const ofRepository = (top: string, prefix: string): string[] =>
    [...lsFiles(top), ...lsFiles(top, '--others', '--exclude-standard')]
      // A nested repository shows as its folder (`a/`); a gitlink as a path with no file.
      .filter((rel) => !rel.endsWith('/') && existsSync(path.join(top, rel)) && !nested.includes(prefix + rel))
      .map((rel) => `${prefix}${rel}`);
  const own = isRepository ? ofRepository(dir, '') : [];
  const inner = nested.flatMap((at) => ofRepository(path.join(dir, at), `${at}/`));
  return [...new Set([...own, ...inner])].sort();
}
