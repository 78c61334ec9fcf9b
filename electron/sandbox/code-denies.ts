import { lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { isPathInside } from '../lib';
import { agentSettings, configuredCodePaths, isGitWorkEntry, nestedGitDirFolders } from '../workspace';
import { isInObjectFolder, objectFolders, privateObjects } from './git-object-links';
import { linkedToProtected, linkMounts } from './linked-files';
import { scanRoots } from './root-scan';
import type { RootScanCache } from './root-scan-cache';

/** A git directory as it was before a command: the entries it held, to find what the command added. */
export interface GitDirState {
  readonly gitDir: string;
  readonly entries: readonly string[];
}

/** What a command's profile keeps read-only inside its writable roots, and what to check once it ends. */
export interface CodeDenies {
  readonly denyWrite: readonly string[];
  readonly gitDirs: readonly GitDirState[];
  /** Files hard-linked to a file the sandbox may not write (kept read-only, alone or with their folder). */
  readonly linkedOutside: readonly string[];
  /** Notes for the command's result: folders kept read-only as a whole for the hard links they hold, git objects copied. */
  readonly notes: readonly string[];
  /** Git object files that were hard links to files outside the roots, replaced by private copies before the command. */
  readonly copiedObjects: readonly string[];
  /** Files that must not appear but cannot be denied while absent (a device there trips git): removed if the command makes them. */
  readonly absentFiles: readonly string[];
}

/**
 * A name below an absent folder: denying it makes the sandbox put an empty read-only folder where
 * the folder would be (a file there would be a device git and tools trip over).
 */
const absentFolderMarker = '.vigil-read-only';

/** Folders of a git directory denied even when absent, so that a command cannot create them. */
const absentGitFolders = ['hooks', 'info'];

async function exists(candidate: string): Promise<boolean> {
  return lstat(candidate).then(
    () => true,
    () => false,
  );
}

/** Every entry of a git directory that git does not write in normal work, nested git directories (submodules, work trees) followed. */
async function gitDirDenies(gitDir: string, states: GitDirState[], depth = 0): Promise<string[]> {
  const entries = await readdir(gitDir, { withFileTypes: true }).catch(() => []);
  states.push({ gitDir, entries: entries.map((entry) => entry.name) });
  const denies: string[] = [];
  for (const entry of entries) {
    const full = path.join(gitDir, entry.name);
    if (isGitWorkEntry(entry.name)) continue;
    if (nestedGitDirFolders.includes(entry.name) && entry.isDirectory() && depth < 8) {
      for (const child of await readdir(full, { withFileTypes: true }).catch(() => [])) {
        const nested = path.join(full, child.name);
        if (child.isDirectory()) denies.push(...(await gitDirDenies(nested, states, depth + 1)));
        else denies.push(nested);
      }
      continue;
    }
    denies.push(full);
  }
  for (const folder of absentGitFolders)
    if (!entries.some((entry) => entry.name === folder)) denies.push(path.join(gitDir, folder, absentFolderMarker));
  return denies;
}

/**
 * Where a protected location goes: an existing one is denied; an absent folder is denied as an
 * empty read-only folder; an absent file is watched instead (a device in its place makes
 * `git add -A` fail) and removed if the command creates it.
 */
async function protect(location: string, isFolder: boolean, denies: string[], absentFiles: string[]): Promise<void> {
  if (await exists(location)) denies.push(location);
  else if (isFolder) denies.push(path.join(location, absentFolderMarker));
  else absentFiles.push(location);
}

/** Where a command's look through the roots is kept, and the folders it may write beside them. */
export interface CodeDenyOptions {
  readonly scans?: RootScanCache;
  /** Writable folders beside the roots: a hard link whose other names all lie there or in the roots is left writable. */
  readonly writable?: readonly string[];
}

/**
 * What a command may not write inside its roots, found by one look through them: every git
 * directory's configuration, hooks and redirections (`commondir`, `.git` files, submodules, work
 * trees) at any depth, the hooks folder and included files its configuration names, agents' and
 * editors' settings (absent ones at each root too), and files hard-linked to files the command
 * may not write (by their folders when they are many; `linkMounts`). Git objects hard-linked
 * outside (a local `git clone`) are not kept read-only but replaced by private copies first
 * (`privateObjects`), so that git keeps working. Rejects with `conflict` when those links cannot
 * all be kept read-only or copied.
 */
export async function codeDenies(
  roots: readonly string[],
  home: string,
  options: CodeDenyOptions = {},
): Promise<CodeDenies> {
  const scan = await scanRoots(roots, process.platform, options.scans);
  const gitDirs: GitDirState[] = [];
  const denyWrite: string[] = [...scan.gitFiles, ...scan.settings];
  const absentFiles: string[] = [];
  for (const { gitDir, workTree } of scan.gitDirs) {
    denyWrite.push(...(await gitDirDenies(gitDir, gitDirs)));
    for (const location of await configuredCodePaths(gitDir, workTree ?? gitDir, home)) {
      if (!roots.some((root) => isPathInside(location.path, root))) continue;
      await protect(location.path, location.isFolder === true, denyWrite, absentFiles);
    }
  }
  for (const root of roots)
    for (const setting of agentSettings)
      await protect(path.join(root, setting.name), setting.isFolder, denyWrite, absentFiles);
  const objects = await objectFolders(
    scan.gitDirs.map((entry) => entry.gitDir),
    roots,
  );
  const copies = await privateObjects(objects, scan.links, options.scans);
  const linked = await linkedToProtected({
    roots,
    links: scan.links.filter((link) => !isInObjectFolder(link.path, objects)),
    writable: options.writable ?? [],
    denied: denyWrite,
    ...(options.scans === undefined ? {} : { scans: options.scans }),
  });
  const links = linkMounts(
    linked.map((link) => link.path),
    roots,
  );
  return {
    denyWrite: [...new Set([...denyWrite, ...links.denyWrite])],
    gitDirs,
    linkedOutside: links.files,
    notes: [...copies.notes, ...links.notes],
    copiedObjects: copies.copied,
    absentFiles: [...new Set(absentFiles)],
  };
}

/**
 * Entries git reads as configuration that a command could create where they were absent (the
 * sandbox can deny an absent path only by putting a device or an empty folder there, and git
 * dies on a `commondir` that is either): any such entry that appeared is removed after the command.
 */
const redirectingEntries = ['commondir', 'config', 'config.worktree', 'gitdir'];

/**
 * What a command created that git or an agent would read as configuration or run (a `commondir`,
 * a `config.worktree`, an `.envrc`, an included file that was absent): removed again once it
 * ended, each named in the returned notes.
 */
export async function undoPlantedCode(
  states: readonly GitDirState[],
  absentFiles: readonly string[],
): Promise<string[]> {
  const notes: string[] = [];
  for (const file of absentFiles) {
    if (!(await exists(file))) continue;
    await rm(file, { recursive: true, force: true });
    notes.push(
      `Vigil removed ${file}, which this command created: another program would have read it as settings or run it as code outside the sandbox.`,
    );
  }
  for (const state of states) {
    const now = await readdir(state.gitDir).catch(() => []);
    for (const name of now) {
      if (state.entries.includes(name) || !redirectingEntries.includes(name)) continue;
      const full = path.join(state.gitDir, name);
      await rm(full, { recursive: true, force: true });
      notes.push(
        `Vigil removed ${full}, which this command created: git would have read it as configuration or run it as code outside the sandbox.`,
      );
    }
  }
  return notes;
}
