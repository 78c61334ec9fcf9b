import { lstat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isPathInside } from '../lib';
import { readLiveText } from '../files';
import { gitConfigPaths } from './git-config-paths';

/**
 * Where agents may not write even inside a workspace root, because another program later reads it
 * as configuration or runs it as code outside the sandbox: git's own configuration and hooks at any
 * depth, and the settings and hook files of agents and editors. One rule for the file tools, the
 * OS sandbox's profile and the hooks.
 */
export interface CodeLocation {
  /** The protected file or folder. */
  readonly path: string;
  /** Why, in words that say what would run. */
  readonly reason: string;
  /** The location is a folder (a hooks folder), which may not exist yet. */
  readonly isFolder?: boolean;
}

/** Entries of a git directory that git itself writes in normal work (add, commit, checkout, merge, rebase, stash, branch, fetch, gc). */
const gitWorkEntries = new Set([
  'objects',
  'refs',
  'logs',
  'index',
  'HEAD',
  'ORIG_HEAD',
  'FETCH_HEAD',
  'COMMIT_EDITMSG',
  'packed-refs',
  'MERGE_HEAD',
  'MERGE_MSG',
  'MERGE_MODE',
  'MERGE_RR',
  'MERGE_AUTOSTASH',
  'AUTO_MERGE',
  'REBASE_HEAD',
  'CHERRY_PICK_HEAD',
  'REVERT_HEAD',
  'SQUASH_MSG',
  'TAG_EDITMSG',
  'NOTES_EDITMSG',
  'rebase-merge',
  'rebase-apply',
  'sequencer',
  'rr-cache',
  'shallow',
  'gc.pid',
  'gc.log',
  'lfs',
  'svn',
]);

/** Whether git writes this entry of a git directory in normal work (its lock and temp files included). */
export function isGitWorkEntry(name: string): boolean {
  if (gitWorkEntries.has(name) || /^BISECT_[A-Z_]+$/u.test(name)) return true;
  if (/^(index|next-index)[.-]/u.test(name)) return true;
  return name.endsWith('.lock') && isGitWorkEntry(name.slice(0, -'.lock'.length));
}

/** Folders of a git directory whose every child is a git directory of its own (submodules, linked work trees). */
export const nestedGitDirFolders: readonly string[] = ['modules', 'worktrees'];

/** Agent and editor settings in a project whose content another program runs or obeys. */
export const agentSettings: readonly { readonly name: string; readonly isFolder: boolean; readonly reason: string }[] =
  [
    { name: '.claude', isFolder: true, reason: 'Claude Code runs the hooks and obeys the permissions set there' },
    { name: '.gemini', isFolder: true, reason: 'Gemini CLI runs the hooks and tools set there' },
    { name: '.cursor', isFolder: true, reason: 'Cursor runs the hooks and MCP servers set there' },
    { name: '.vscode', isFolder: true, reason: 'VS Code runs the tasks and obeys the settings there' },
    { name: '.idea', isFolder: true, reason: 'JetBrains IDEs run the tools and run configurations set there' },
    { name: '.husky', isFolder: true, reason: 'git runs the hooks husky keeps there' },
    { name: '.mcp.json', isFolder: false, reason: 'agents start the MCP servers it names' },
    { name: '.envrc', isFolder: false, reason: 'direnv runs it when a shell enters the folder' },
  ];

function gitEntryReason(name: string): string {
  switch (name) {
    case 'config':
    case 'config.worktree':
      return 'git runs the programs its configuration names (core.fsmonitor, core.pager, aliases, filters)';
    case 'hooks':
      return 'git runs the hooks in it';
    case 'commondir':
    case 'gitdir':
      return 'it tells git to read its configuration and hooks from another folder';
    default:
      return 'git reads it as configuration';
  }
}

/** The protected location a path (`rest`, below the git directory `gitDir`) falls in, if any. */
export function gitDirEntryLocation(gitDir: string, rest: readonly string[]): CodeLocation | undefined {
  const name = rest[0];
  if (name === undefined) return { path: gitDir, reason: 'it is a git directory' };
  if (nestedGitDirFolders.includes(name)) {
    const child = rest[1];
    if (child === undefined || rest.length === 2)
      return {
        path: path.join(gitDir, name, child ?? ''),
        reason: 'it holds the git directory of a submodule or a linked work tree',
      };
    return gitDirEntryLocation(path.join(gitDir, name, child), rest.slice(2));
  }
  if (isGitWorkEntry(name)) return undefined;
  return { path: path.join(gitDir, name), reason: gitEntryReason(name) };
}

/** What a path's own name says, without reading the disk: an agent setting or a git directory entry on its way down. */
export function lexicalCodeLocation(absolute: string, root: string): CodeLocation | undefined {
  const parts = path
    .relative(root, absolute)
    .split(path.sep)
    .filter((part) => part !== '');
  for (const [index, part] of parts.entries()) {
    const here = path.join(root, ...parts.slice(0, index + 1));
    const lower = part.toLowerCase();
    const setting = agentSettings.find((entry) => entry.name === lower);
    if (setting !== undefined && (setting.isFolder ? true : index === parts.length - 1))
      return { path: here, reason: setting.reason };
    if (lower === '.git') {
      if (index === parts.length - 1)
        return { path: here, reason: 'git reads it to find the repository, its configuration and its hooks' };
      return gitDirEntryLocation(here, parts.slice(index + 1));
    }
  }
  return undefined;
}

async function kindOf(candidate: string): Promise<'file' | 'folder' | undefined> {
  return lstat(candidate).then(
    (stats) => (stats.isDirectory() ? 'folder' : stats.isFile() ? 'file' : undefined),
    () => undefined,
  );
}

/** Whether a folder is a git directory under another name (a bare repository, a planted copy, a `gitdir:` target). */
export async function isGitDirectory(folder: string): Promise<boolean> {
  const [head, objects, refs, commondir] = await Promise.all(
    ['HEAD', 'objects', 'refs', 'commondir'].map((name) => kindOf(path.join(folder, name))),
  );
  return head === 'file' && ((objects === 'folder' && refs === 'folder') || commondir === 'file');
}

/** The git directory a work tree's `.git` names: the folder itself, or the target of a `gitdir:` file. */
export async function gitDirOf(dotGit: string): Promise<string | undefined> {
  const kind = await kindOf(dotGit);
  if (kind === 'folder') return dotGit;
  if (kind !== 'file') return undefined;
  // Followed as git follows it; never waiting on a FIFO the workspace's owner put there.
  const text = (await readLiveText(dotGit, { followsSymlink: true })) ?? '';
  const target = /^gitdir:\s*(.+?)\s*$/mu.exec(text)?.[1];
  return target === undefined ? undefined : path.resolve(path.dirname(dotGit), target);
}

/** The configuration files git reads for a git directory: its own, its common directory's, and the user's global ones. */
export async function configFilesOf(gitDir: string, home: string): Promise<string[]> {
  const files = [path.join(gitDir, 'config'), path.join(gitDir, 'config.worktree')];
  const common = ((await readLiveText(path.join(gitDir, 'commondir'), { followsSymlink: true })) ?? '').trim();
  if (common !== '') files.push(path.join(path.resolve(gitDir, common), 'config'));
  const xdg = process.env['XDG_CONFIG_HOME'] ?? path.join(home, '.config');
  files.push(path.join(home, '.gitconfig'), path.join(xdg, 'git', 'config'));
  return files;
}

/** The hooks folders and included files a repository's configuration names. */
export async function configuredCodePaths(
  gitDir: string,
  workTree: string,
  home: string,
): Promise<readonly CodeLocation[]> {
  const found: CodeLocation[] = [];
  for (const file of await configFilesOf(gitDir, home)) {
    const named = await gitConfigPaths(file, workTree, home);
    for (const hooks of named.hooksPaths)
      found.push({ path: hooks, reason: 'git runs the hooks in it (core.hooksPath)', isFolder: true });
    for (const included of named.includes)
      found.push({ path: included, reason: 'git reads it as configuration (include.path)' });
  }
  return found;
}

/**
 * Whether an agent may write `absolute` (inside the workspace root `root`): the agent and editor
 * settings, every git directory entry git reads as configuration or code (found by name, and by
 * what a folder holds for git directories under other names), and the hooks folder and included
 * files the enclosing repository's configuration names. Undefined: nothing known runs it.
 */
export async function codeLocationOf(
  absolute: string,
  root: string,
  home: string = os.homedir(),
): Promise<CodeLocation | undefined> {
  const lexical = lexicalCodeLocation(absolute, root);
  if (lexical !== undefined) return lexical;
  let workTree: string | undefined;
  for (let folder = path.dirname(absolute); isPathInside(folder, root); folder = path.dirname(folder)) {
    if (await isGitDirectory(folder)) {
      const rest = path.relative(folder, absolute).split(path.sep);
      return gitDirEntryLocation(folder, rest) ?? undefined;
    }
    if (workTree === undefined && (await kindOf(path.join(folder, '.git'))) !== undefined) workTree = folder;
    if (folder === path.dirname(folder)) break;
  }
  const gitDir = workTree === undefined ? undefined : await gitDirOf(path.join(workTree, '.git'));
  if (workTree === undefined || gitDir === undefined) return undefined;
  for (const location of await configuredCodePaths(gitDir, workTree, home))
    if (isPathInside(absolute, location.path)) return location;
  return undefined;
}
