import { AppError } from '../../shared/errors';
import { resolveTimelineDirectory } from './checkpoint-directory';
import {
  droppedCheckpoints,
  listDirectories,
  resolveCheckpoint,
  skippedPaths,
  type QueryContext,
} from './checkpoint-queries';
import type { CheckpointDirectory, CheckpointEntry, RetentionPolicy, StoreStatus } from './checkpoint-types';
import type { CutLog } from './maintenance/cut-log';
import type { ObjectStore } from '../git-store';
import type { PinStore } from './timeline/pin-store';
import { dirHash } from '../git-store';
import { measureStore } from './maintenance/store-usage';

/** The settings config.json gives the engine; a running engine takes new ones at once. */
export interface CheckpointSettings {
  readonly retention: RetentionPolicy;
  readonly maxFileBytes: number;
}

/** A pin or unpin, as it was applied. */
export interface PinOutcome {
  readonly dir: string;
  readonly id: string;
  readonly isPinned: boolean;
  /** False when the checkpoint already was (or was not) pinned. */
  readonly changed: boolean;
}

/** What the store's views (status, pins, cuts) read besides the timelines. */
export interface StoreViewContext extends QueryContext {
  readonly gitdir: string;
  readonly store: ObjectStore;
  readonly pins: PinStore;
  readonly cutLog: CutLog;
  readonly settings: CheckpointSettings;
}

/** Entries with their pins marked. */
export function markPinned(entries: readonly CheckpointEntry[], pins: ReadonlySet<string>): readonly CheckpointEntry[] {
  return pins.size === 0
    ? entries
    : entries.map((entry) => (pins.has(entry.id) ? { ...entry, isPinned: true } : entry));
}

/** How many of a directory's dropped checkpoints are still restorable. */
async function restorableDropped(context: StoreViewContext, directory: CheckpointDirectory): Promise<number> {
  if (directory.dir.startsWith('(unknown directory')) return 0;
  const entries = await droppedCheckpoints(context, directory.dir).catch(() => []);
  return entries.filter((entry) => entry.expiredAt === undefined).length;
}

/** Sizes, retention, pins, what each directory's last checkpoint skipped, and the latest cuts (of `dir` only, when given). */
export async function readStoreStatus(context: StoreViewContext, dir?: string): Promise<StoreStatus> {
  const only = dir === undefined ? undefined : dirHash(await resolveTimelineDirectory(dir));
  const all = await listDirectories(context);
  const chosen = all.filter((item) => only === undefined || item.dirhash === only);
  if (dir !== undefined && chosen.length === 0)
    throw new AppError('not_found', `${dir} has no checkpoints: it was never checkpointed.`, { dir });
  const pins = await context.pins.all();
  const maxSnapshots = context.settings.retention.maxSnapshots;
  const directories = await Promise.all(
    chosen.map(async (item) => ({
      ...item,
      skipped: await skippedPaths(context, item),
      pinned: pins.get(item.dirhash)?.size ?? 0,
      // Only a timeline over its limit (a lowered maxSnapshots) is news: its next checkpoint adds one and keeps maxSnapshots.
      wouldDrop: item.count > maxSnapshots ? item.count + 1 - maxSnapshots : 0,
      dropped: await restorableDropped(context, item),
    })),
  );
  const [usage, cuts] = await Promise.all([measureStore(context.store.objectsDir), context.cutLog.recent(20, only)]);
  return {
    gitdir: context.gitdir,
    ...usage,
    retention: context.settings.retention,
    maxFileBytes: context.settings.maxFileBytes,
    directories,
    cuts,
  };
}

/** Pins or unpins checkpoint `ref` of `dir` (the store lock is held). */
export async function setPin(
  context: StoreViewContext,
  dir: string,
  ref: string,
  isPinned: boolean,
): Promise<PinOutcome> {
  const entry = await resolveCheckpoint(context, await resolveTimelineDirectory(dir), ref);
  const changed = await context.pins.set(dirHash(entry.dir), entry.id, isPinned);
  return { dir: entry.dir, id: entry.id, isPinned, changed };
}
