import path from 'node:path';
import type { DirState, FileRecord } from './dir-state';
import { relativeInside } from '../../lib';
import type { WalkHeadStart } from './walk-head-start';
import type { CheckpointStats } from '../checkpoint-types';

/**
 * What this process knows about one checkpointed directory between snapshots: its state (the
 * stat cache in memory), the paths changed since the last snapshot, and whether that list can be
 * trusted (a watcher runs and did not overflow) or the next snapshot must walk the whole tree.
 */
export class TrackedDirectory {
  state: DirState | undefined;
  /** Relative paths changed since the last snapshot (Vigil's own writes, watcher events). */
  readonly dirty = new Set<string>();
  /** The dirty set is incomplete: the next snapshot walks the whole tree. */
  needsFullScan = true;
  /** Whether a watcher currently reports changes in this directory. */
  isWatched = false;
  /** Why the whole tree is (or was last) walked rather than answered from the watcher; undefined while watched and trusted. */
  walkReason: string | undefined;
  /** Sub-folders no watch covers (permission denied), with why: each checkpoint walks them. */
  readonly walkedPaths = new Map<string, string>();
  /** How many snapshots took the dirty set (a verification walk spanning one of them proves nothing). */
  generation = 0;
  /** Changes the background verification found the watcher had not reported (each one repaired). */
  defects = 0;
  /** When the background verification last compared the watched state with the disk (ISO time). */
  verifiedAt: string | undefined;
  /** The stat cache has changes not saved yet. */
  isCacheStale = false;
  /** About how many entries the directory holds (from the watcher's setup walk), before any snapshot. */
  sizeHint = 0;
  /** When this process last wrote the directory's registry record (ms since the epoch). */
  registryTouchedAt = 0;
  /** Records the last snapshot hashed so close to its start that their stat cannot be trusted yet (see `smudgeRacyRecords`). */
  racy = new Map<string, FileRecord>();
  /** A walk begun before this process's engine was built (a one-shot `vigil checkpoint`), for its first snapshot. */
  headStart: WalkHeadStart | undefined;
  /** A first snapshot taken ahead of need (`CheckpointService.warmUp`): its tree and stats, written to the store but committed by no ref yet. */
  warmed: { readonly tree: string; readonly stats: CheckpointStats } | undefined;

  constructor(
    readonly dir: string,
    readonly dirhash: string,
  ) {}

  /** The path relative to the directory (`/`-separated), or undefined when outside it. */
  relative(absolute: string): string | undefined {
    const rel = relativeInside(this.dir, absolute);
    if (rel === undefined || rel === '') return undefined;
    return rel.split(path.sep).join('/');
  }

  /** Marks a path (absolute) as changed. */
  markDirty(absolute: string): void {
    const rel = this.relative(absolute);
    if (rel !== undefined) this.dirty.add(rel);
  }

  /** Forgets what changed (the snapshot took it), returning it. */
  takeDirty(): string[] {
    this.generation += 1;
    const taken = [...this.dirty];
    this.dirty.clear();
    return taken;
  }
}
