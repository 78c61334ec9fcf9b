import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { dirHash } from '../git-store';
import type { HermesHomePaths } from './hermes-home';

/** Which of Hermes's two checkpoint layouts a timeline lives in. */
export type HermesStoreKind =
  /** v2: one bare store `checkpoints/store/` shared by every project, `refs/hermes/<hash16>` per project. */
  | 'shared'
  /** pre-v2: one shadow repository per directory, `checkpoints/<hash16>/` (or archived under `legacy-<ts>/`). */
  | 'legacy';

/** One Hermes timeline of a directory: where its commits are and which ref is its head. */
export interface HermesTimelineSource {
  readonly kind: HermesStoreKind;
  /** The git directory holding the commits (never written by Vigil). */
  readonly gitdir: string;
  /** The head: `refs/hermes/<hash16>` in the shared store, `HEAD` in a shadow repository. */
  readonly ref: string;
}

/** The shared store's folder under a Hermes home's `checkpoints/`. */
export function sharedStorePath(home: HermesHomePaths): string {
  return path.join(home.checkpoints, 'store');
}

async function isFile(file: string): Promise<boolean> {
  return stat(file).then(
    (info) => info.isFile(),
    () => false,
  );
}

/** The first line of a small text file Hermes wrote (UTF-8, maybe with a BOM), or undefined. */
async function readMarker(file: string): Promise<string | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text?.replace(/^\uFEFF/, '').trim();
}

/**
 * Whether a project record or a shadow repo's `HERMES_WORKDIR` names `dir`. A record that names
 * another folder means the hash belongs to someone else (or the folder moved), so its timeline is
 * not shown for `dir`; a missing or unreadable record is no evidence against the hash.
 */
function namesDirectory(recorded: string | undefined, dir: string): boolean {
  return recorded === undefined || recorded === '' || path.resolve(recorded) === dir;
}

async function projectWorkdir(store: string, hash: string): Promise<string | undefined> {
  const text = await readMarker(path.join(store, 'projects', `${hash}.json`));
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as { workdir?: unknown };
    return typeof parsed.workdir === 'string' ? parsed.workdir : undefined;
  } catch {
    return undefined;
  }
}

/** The shadow repositories of pre-v2 Hermes that may hold `hash`: live ones and archived ones. */
async function legacyCandidates(home: HermesHomePaths, hash: string): Promise<string[]> {
  const names = await readdir(home.checkpoints).catch(() => [] as string[]);
  const archives = names.filter((name) => name.startsWith('legacy-')).sort();
  return [path.join(home.checkpoints, hash), ...archives.map((archive) => path.join(home.checkpoints, archive, hash))];
}

/**
 * Every Hermes timeline of a directory (resolved absolute path) across the given Hermes homes:
 * the shared store's ref for its hash (when the store exists and its project record does not name
 * another folder), and pre-v2 shadow repositories named by the hash whose `HERMES_WORKDIR` is the
 * directory. Nothing is created or written; a home without checkpoints yields nothing.
 */
export async function locateHermesTimelines(
  homes: readonly HermesHomePaths[],
  dir: string,
): Promise<HermesTimelineSource[]> {
  const hash = dirHash(dir);
  const found: HermesTimelineSource[] = [];
  for (const home of homes) {
    const store = sharedStorePath(home);
    if ((await isFile(path.join(store, 'HEAD'))) && namesDirectory(await projectWorkdir(store, hash), dir)) {
      found.push({ kind: 'shared', gitdir: store, ref: `refs/hermes/${hash}` });
    }
    for (const candidate of await legacyCandidates(home, hash)) {
      if (!(await isFile(path.join(candidate, 'HEAD')))) continue;
      if (!namesDirectory(await readMarker(path.join(candidate, 'HERMES_WORKDIR')), dir)) continue;
      found.push({ kind: 'legacy', gitdir: candidate, ref: 'HEAD' });
    }
  }
  return found;
}

/** One directory Hermes has checkpoints of, as its records name it. */
export interface HermesDirectoryRecord {
  readonly dir: string;
  readonly dirhash: string;
  /** When Hermes last checkpointed it (ISO 8601), when recorded. */
  readonly lastTouch?: string;
}

/** Hermes writes `last_touch` as seconds since the epoch (a float). */
function isoFromSeconds(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0
    ? new Date(value * 1000).toISOString()
    : undefined;
}

/** Every directory the Hermes homes hold checkpoints of: shared-store project records and shadow repos. */
export async function listHermesDirectories(homes: readonly HermesHomePaths[]): Promise<HermesDirectoryRecord[]> {
  const found = new Map<string, HermesDirectoryRecord>();
  for (const home of homes) {
    const projects = path.join(sharedStorePath(home), 'projects');
    for (const name of await readdir(projects).catch(() => [] as string[])) {
      if (!/^[0-9a-f]{16}\.json$/.test(name)) continue;
      const text = await readMarker(path.join(projects, name));
      try {
        const record = JSON.parse(text ?? '') as { workdir?: unknown; last_touch?: unknown };
        if (typeof record.workdir !== 'string') continue;
        const lastTouch = isoFromSeconds(record.last_touch);
        found.set(record.workdir, {
          dir: record.workdir,
          dirhash: name.slice(0, 16),
          lastTouch,
        });
      } catch {
        // A record Hermes is rewriting right now, or a damaged one: its ref still shows under its folder.
      }
    }
    const top = await readdir(home.checkpoints).catch(() => [] as string[]);
    const archives = top.filter((name) => name.startsWith('legacy-'));
    const shadows = [
      ...top.filter((name) => /^[0-9a-f]{16}$/.test(name)).map((name) => path.join(home.checkpoints, name)),
      ...(
        await Promise.all(
          archives.map(async (archive) =>
            (await readdir(path.join(home.checkpoints, archive)).catch(() => [] as string[])).map((name) =>
              path.join(home.checkpoints, archive, name),
            ),
          ),
        )
      ).flat(),
    ];
    for (const shadow of shadows) {
      const workdir = await readMarker(path.join(shadow, 'HERMES_WORKDIR'));
      if (workdir === undefined || workdir === '' || found.has(workdir)) continue;
      found.set(workdir, { dir: workdir, dirhash: path.basename(shadow) });
    }
  }
  return [...found.values()];
}
