import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { directoryExclusion, fileExclusion, type SkippedPath } from '../checkpoints';
import { isVigilBookkeepingFile, mapLimit } from '../files';

/** Folders listed at once. */
const listConcurrency = 16;

/** One source of ignore patterns, and the folder its patterns are relative to ("" is the root). */
interface IgnoreSource {
  readonly base: string;
  readonly rules: Ignore;
}

/** Where the paths come from. */
export interface UnstoredPathsOptions {
  /** The environment (`XDG_CONFIG_HOME`), for git's default global excludes file. */
  readonly env: NodeJS.ProcessEnv;
  /** The user's home directory (default os.homedir()). */
  readonly home?: string;
}

async function readRules(file: string): Promise<Ignore | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : ignore().add(text);
}

/**
 * git's default `core.excludesFile`. Hermes runs git with `GIT_CONFIG_GLOBAL=/dev/null`, which
 * hides a configured excludes file but not this default one.
 */
function globalExcludesFile(options: UnstoredPathsOptions): string {
  const xdg = options.env['XDG_CONFIG_HOME'];
  const base = xdg !== undefined && xdg !== '' ? xdg : path.join(options.home ?? os.homedir(), '.config');
  return path.join(base, 'git', 'ignore');
}

/** Whether git ignores a path, by the sources in force for it, lowest precedence first (a later match wins). */
function isIgnored(sources: readonly IgnoreSource[], relativePath: string, isFolder: boolean): boolean {
  let ignored = false;
  for (const source of sources) {
    const local = source.base === '' ? relativePath : relativePath.slice(source.base.length + 1);
    const verdict = source.rules.test(isFolder ? `${local}/` : local);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

async function isNestedRepository(folder: string): Promise<boolean> {
  return lstat(path.join(folder, '.git')).then(
    () => true,
    () => false,
  );
}

/**
 * What a Hermes checkpoint could not have stored of `dir` as it is now: the paths git ignores
 * when Hermes runs `git add -A` (the store's `info/exclude`, every `.gitignore` of the directory,
 * git's default global excludes file) and nested repositories (git records those as gitlinks, not
 * files). A restore must never delete such a path for being absent from the checkpoint. Folders
 * Vigil's own rules exclude are not entered (a restore never touches them). Read-only.
 *
 * Where git and this walk could differ, it errs towards "not stored" (the restore then leaves a
 * file alone): below a folder that a weaker source ignores and a stronger one re-includes (`env/`
 * in info/exclude, `!env/` in .gitignore), the weaker source still counts for the folder's files.
 */
export async function hermesUnstoredPaths(
  dir: string,
  gitdir: string,
  options: UnstoredPathsOptions,
): Promise<SkippedPath[]> {
  const skipped: SkippedPath[] = [];
  const rootSources: IgnoreSource[] = [];
  for (const file of [globalExcludesFile(options), path.join(gitdir, 'info', 'exclude')]) {
    const rules = await readRules(file);
    if (rules !== undefined) rootSources.push({ base: '', rules });
  }
  let level: { readonly folder: string; readonly sources: readonly IgnoreSource[] }[] = [
    { folder: '', sources: rootSources },
  ];
  while (level.length > 0) {
    const next: typeof level = [];
    await mapLimit(level, listConcurrency, async ({ folder, sources: inherited }) => {
      const absolute = path.join(dir, ...folder.split('/'));
      const own = await readRules(path.join(absolute, '.gitignore'));
      const sources = own === undefined ? inherited : [...inherited, { base: folder, rules: own }];
      const entries: Dirent[] = await readdir(absolute, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const relativePath = folder === '' ? entry.name : `${folder}/${entry.name}`;
        const isFolder = entry.isDirectory();
        if (entry.name === '.git' || isVigilBookkeepingFile(entry.name)) continue;
        if ((isFolder ? directoryExclusion(entry.name) : fileExclusion(entry.name)) !== undefined) continue;
        if (isFolder && (await isNestedRepository(path.join(absolute, entry.name)))) {
          skipped.push({ path: `${relativePath}/`, reason: 'vcs' });
        } else if (isIgnored(sources, relativePath, isFolder)) {
          skipped.push({ path: isFolder ? `${relativePath}/` : relativePath, reason: 'excluded' });
        } else if (isFolder) {
          next.push({ folder: relativePath, sources });
        }
      }
    });
    level = next;
  }
  return skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
