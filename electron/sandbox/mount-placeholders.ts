import { chmod, lstat, mkdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { isPathBelow, isPathInside } from '../lib';
import {
  forgetPlaceholderPaths,
  isPlaceholderFolder,
  isRecordedByAnother,
  type MadePlaceholder,
  pinPlaceholder,
  placeholderMode,
  recordPlaceholderPaths,
} from './placeholder-record';

/**
 * The mount points of absent protected paths, made by Vigil instead of bubblewrap. bubblewrap can
 * keep a path read-only only by mounting over it, so for an absent one (`.vscode`, `.git/hooks`)
 * something has to exist in the user's project while the command runs. Left to bubblewrap, the
 * engine removed them after the command, and a spawn server killed meanwhile left them in the
 * project for good. Made here, each path is recorded (durably) in the data folder before the first
 * placeholder is made there, and each is marked (`placeholderMode`), so that a later start removes
 * what a killed process left, and only what still is a placeholder. Each is an empty folder, also for a file
 * (a protected file removed after the command's profile was built): the command can create
 * nothing there either, and unlike the empty file bubblewrap would make, a checkpoint taken
 * meanwhile stores nothing of it (git keeps no empty folder) and no command is said to have made
 * it. The engine sees them as existing and binds each read-only over itself.
 */

/** A placeholder this process binds: one it made, or one another process made (`foundIn`: the record folder to check). */
type LivePlaceholder = MadePlaceholder & { readonly foundIn?: string };

const live = new Map<string, LivePlaceholder>();
/** Sandboxed commands of this process between their placement and their release. */
let activeCommands = 0;
let queue: Promise<unknown> = Promise.resolve();

/** Runs placements and releases one after another: two commands never make or remove the same path at once. */
function serialized<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

type Entry = { readonly kind: 'missing' } | { readonly kind: 'folder' } | { readonly kind: 'other' };

async function entryAt(candidate: string): Promise<Entry> {
  try {
    const info = await lstat(candidate);
    return { kind: info.isDirectory() ? 'folder' : 'other' };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'missing' } : { kind: 'other' };
  }
}

/**
 * Where the mount point of an absent deny path goes, as the engine would put it: at its first
 * missing component, inside a writable root. Undefined when the path exists, lies under a file, a
 * symbolic link or a path already denied, or outside the roots: those are left to the engine.
 */
async function mountPointOf(
  denied: string,
  allowWrite: readonly string[],
  denyWrite: readonly string[],
): Promise<string | undefined> {
  const root = allowWrite.find((candidate) => isPathBelow(denied, candidate));
  // The caller found the path absent (existingDeny); the walk below says so again if it appeared since.
  if (root === undefined) return undefined;
  let current = root;
  if ((await entryAt(root)).kind !== 'folder') return undefined;
  for (const part of path.relative(root, denied).split(path.sep)) {
    current = path.join(current, part);
    const ourOwn = live.get(current);
    if (ourOwn !== undefined) return current;
    const entry = await entryAt(current);
    if (entry.kind === 'missing') break;
    if (entry.kind !== 'folder') return undefined;
    if (current === denied) return undefined;
  }
  // Under a path denied as it is, nothing can be created: the engine mounts nothing there either.
  if (denyWrite.some((other) => other !== denied && other !== current && isPathInside(current, other)))
    return undefined;
  return current;
}

/** Makes one placeholder, an empty folder with the placeholder mode, or undefined when the name is taken meanwhile (not ours). */
async function makeOne(at: string): Promise<MadePlaceholder | undefined> {
  try {
    await mkdir(at, { mode: 0o755 });
  } catch {
    return undefined;
  }
  await chmod(at, placeholderMode);
  const info = await lstat(at, { bigint: true });
  return { path: at, dev: info.dev, ino: info.ino };
}

/**
 * What an existing deny path is to the placement: another process's placeholder (it may still bind
 * it, or have died) that this command keeps read-only as it is, or nothing to do; undefined when
 * the path is absent. One lstat, as most deny paths exist.
 */
async function existingDeny(
  denied: string,
  allowWrite: readonly string[],
): Promise<{ readonly found?: MadePlaceholder } | undefined> {
  let info;
  try {
    info = await lstat(denied, { bigint: true });
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : {};
  }
  const isForeign =
    isPlaceholderFolder(info) && !live.has(denied) && allowWrite.some((root) => isPathBelow(denied, root));
  return isForeign ? { found: { path: denied, dev: info.dev, ino: info.ino } } : {};
}

/** Removes one of this process's placeholders if it is still exactly what was made: the same folder, marked, empty. */
async function removeIfUntouched(made: LivePlaceholder): Promise<void> {
  if (made.pin !== undefined) await rmdir(made.pin).catch(() => undefined);
  // One another process made goes only if a process of this data folder recorded it: never a marked folder of the user's.
  if (made.foundIn !== undefined && !(await isRecordedByAnother(made.foundIn, made.path))) return;
  const info = await lstat(made.path, { bigint: true }).catch(() => undefined);
  if (info === undefined || info.dev !== made.dev || info.ino !== made.ino || !isPlaceholderFolder(info)) return;
  // rmdir: a folder the user filled since is not empty, and stays.
  await rmdir(made.path).catch(() => undefined);
}

/** What a command's placement made: the deny list to wrap it with, and its release. */
export interface Placement {
  readonly denyWrite: readonly string[];
  /** Removes the placeholders once no sandboxed command of this process runs any more. */
  release(): Promise<void>;
}

/**
 * Makes the mount points the command's absent deny paths need (empty folders), records them durably in `recordFolder` and returns the deny list
 * with each such path replaced by its placeholder. Call `release()` once the command exited.
 */
export function placePlaceholders(
  allowWrite: readonly string[],
  denyWrite: readonly string[],
  recordFolder: string,
): Promise<Placement> {
  return serialized(async () => {
    activeCommands += 1;
    const wanted = new Set<string>();
    const replaced = new Map<string, string>();
    const foreign: MadePlaceholder[] = [];
    for (const denied of denyWrite) {
      const existing = await existingDeny(denied, allowWrite);
      if (existing?.found !== undefined) foreign.push(existing.found);
      const at = existing === undefined ? await mountPointOf(denied, allowWrite, denyWrite) : undefined;
      if (at === undefined) continue;
      replaced.set(denied, at);
      if (!live.has(at)) wanted.add(at);
    }
    let isReleased = false;
    const release = (): Promise<void> => {
      if (isReleased) return Promise.resolve();
      isReleased = true;
      return serialized(releaseAll);
    };
    try {
      // Recorded (durably, when new to this process) before they are made: a process killed later leaves nothing unknown.
      const used = [...wanted, ...foreign.map((found) => found.path)];
      if (used.length > 0) await recordPlaceholderPaths(recordFolder, used);
      for (const at of wanted) {
        const made = await makeOne(at);
        if (made === undefined) replaced.forEach((to, from) => to === at && replaced.delete(from));
        else live.set(at, { ...made, pin: await pinPlaceholder(recordFolder, at) });
      }
      // Another process's placeholder is pinned too, and removed by this one if it is the last to leave it (and recorded).
      for (const found of foreign) {
        const pin = await pinPlaceholder(recordFolder, found.path);
        if (pin !== undefined) live.set(found.path, { ...found, pin, foundIn: recordFolder });
      }
    } catch (error) {
      await release();
      throw error;
    }
    return { denyWrite: [...new Set(denyWrite.map((denied) => replaced.get(denied) ?? denied))], release };
  });
}

/** One command is done; when it was the last, every placeholder goes (a removed mount point would detach a running sandbox's bind). */
async function releaseAll(): Promise<void> {
  activeCommands = Math.max(0, activeCommands - 1);
  if (activeCommands > 0 || live.size === 0) return;
  // Deepest first: a folder made inside another goes before it.
  const made = [...live.values()].sort((a, b) => b.path.length - a.path.length);
  for (const placeholder of made) await removeIfUntouched(placeholder);
  live.clear();
}

/** At a clean exit: once no command runs and no placeholder is left, this process's record goes (never rejects). */
export function forgetPlaceholders(): Promise<void> {
  return serialized(async () => {
    if (activeCommands === 0 && live.size === 0) await forgetPlaceholderPaths().catch(() => undefined);
  });
}
