import { lstat, mkdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import { homeCredentialStores } from '../workspace';
import { codeDenies, type GitDirState } from './code-denies';
import type { RootScanCache } from './root-scan-cache';
import type { SandboxPolicy } from './sandbox-settings';

/** Where one command may write and what it may not read, as the OS sandbox enforces it. */
export interface SandboxProfile {
  /** Writable: the workspace roots, the session's private temp folder, the agents' package cache, extra paths. */
  readonly allowWrite: readonly string[];
  /** Neither readable nor writable: Vigil's data folder, other sessions' temp folders, credential stores. */
  readonly denyRead: readonly string[];
  /** Read-only inside writable roots: what git reads as configuration or code at any depth, agents' settings, files hard-linked outside (code.ts's rules). */
  readonly denyWrite: readonly string[];
  /** The git directories the command may write, as they were: what it adds git would read is removed once it ends. */
  readonly gitDirs: readonly GitDirState[];
  /** Files of the roots hard-linked to files the command may not write (kept read-only, alone or with their folder). */
  readonly linkedOutside: readonly string[];
  /** Git object files that were hard links to files outside the roots, replaced by private copies before the command. */
  readonly copiedObjects: readonly string[];
  /** Notes for the command's result: what the profile kept read-only beyond the usual (or copied), and why. */
  readonly notes: readonly string[];
  /** Protected files absent before the command: removed if it creates them. */
  readonly absentFiles: readonly string[];
  /** Variables set for the command: its temp folder and the package managers' cache folders. */
  readonly env: Readonly<Record<string, string>>;
}

/** What a profile is built from. */
export interface ProfileRequest {
  /** The session's workspace roots (resolved, absolute). */
  readonly roots: readonly string[];
  /** The session's private temp folder (exists, mode 0700). */
  readonly privateTemp: string;
  /** The folder holding every session's private temp folder: hidden from the command but for its own. */
  readonly tempParent: string;
  /** The writable cache the agents' package managers share (npm, pip, yarn, go, cargo …). */
  readonly agentCache: string;
  /** $VIGIL_HOME. */
  readonly vigilHome: string;
  /** The user's home folder(s): their credential stores are hidden. */
  readonly homes: readonly string[];
  readonly policy: SandboxPolicy;
  /** What the roots held at the last command, read again where it changed (default: each root listed whole). */
  readonly scans?: RootScanCache;
}

/** Folders outside the home the engine makes writable for itself when they exist. */
const engineWritableDefaults = ['/tmp/claude', '/private/tmp/claude'];

/** A path from config.json: `~` is the (first) home folder; relative paths are refused by the caller's schema reading. */
function expandHome(entry: string, home: string): string {
  if (entry === '~') return home;
  if (entry.startsWith('~/')) return path.join(home, entry.slice(2));
  return path.resolve(entry);
}

async function exists(candidate: string): Promise<boolean> {
  return lstat(candidate).then(
    () => true,
    () => false,
  );
}

/**
 * The package managers' cache folders, all inside one writable folder the agents share, so an
 * install works without making the user's own caches writable (npm's `_npx`, for one, holds code
 * the user's own `npx` later runs outside the sandbox).
 */
function cacheVariables(cache: string): Record<string, string> {
  return {
    npm_config_cache: path.join(cache, 'npm'),
    YARN_CACHE_FOLDER: path.join(cache, 'yarn'),
    npm_config_store_dir: path.join(cache, 'pnpm-store'),
    PIP_CACHE_DIR: path.join(cache, 'pip'),
    BUN_INSTALL_CACHE_DIR: path.join(cache, 'bun'),
    GOMODCACHE: path.join(cache, 'go-mod'),
    GOCACHE: path.join(cache, 'go-build'),
    CARGO_HOME: path.join(cache, 'cargo'),
    GRADLE_USER_HOME: path.join(cache, 'gradle'),
    XDG_CACHE_HOME: path.join(cache, 'xdg'),
  };
}

/**
 * Builds the filesystem profile of one command. A workspace root that no longer exists fails with
 * `conflict`: the command is never run without the profile it was meant to have.
 */
export async function buildSandboxProfile(request: ProfileRequest): Promise<SandboxProfile> {
  const home = request.homes[0] ?? os.homedir();
  for (const root of request.roots) {
    const isDirectory = await stat(root).then(
      (stats) => stats.isDirectory(),
      () => false,
    );
    if (!isDirectory) {
      throw new AppError(
        'conflict',
        `The sandbox for this command could not be built: the workspace root ${root} no longer exists (or is not a folder). The command was not run; re-create the folder or reconnect the agent with its current roots.`,
        { root },
      );
    }
  }
  await mkdir(request.agentCache, { recursive: true, mode: 0o700 });
  const extraWritable: string[] = [];
  for (const entry of request.policy.writablePaths) {
    const resolved = expandHome(entry, home);
    if (await exists(resolved)) extraWritable.push(resolved);
  }
  const writable = [request.privateTemp, request.agentCache, ...extraWritable];
  const code = await codeDenies(request.roots, home, {
    writable,
    ...(request.scans === undefined ? {} : { scans: request.scans }),
  });
  const denyWrite = [...code.denyWrite];
  // The engine keeps a few folders writable for its own tools when they exist (/tmp/claude, ~/.npm/_logs,
  // ~/.claude/debug): shared between sessions and outside every root, they are closed here.
  for (const shared of engineWritableDefaults) if (await exists(shared)) denyWrite.push(shared);
  const credentials = homeCredentialStores([...new Set(request.homes)]).map((location) => location.path);
  const extraProtected = request.policy.protectedPaths.map((entry) => expandHome(entry, home));
  const engineHomeDefaults = request.homes.flatMap((folder) => [
    path.join(folder, '.npm', '_logs'),
    path.join(folder, '.claude', 'debug'),
  ]);
  return {
    allowWrite: [...new Set([...request.roots, ...writable])],
    denyRead: [
      ...new Set([request.vigilHome, request.tempParent, ...credentials, ...extraProtected, ...engineHomeDefaults]),
    ],
    denyWrite,
    gitDirs: code.gitDirs,
    linkedOutside: code.linkedOutside,
    copiedObjects: code.copiedObjects,
    notes: code.notes,
    absentFiles: code.absentFiles,
    env: {
      TMPDIR: request.privateTemp,
      TMP: request.privateTemp,
      TEMP: request.privateTemp,
      ...cacheVariables(request.agentCache),
    },
  };
}
