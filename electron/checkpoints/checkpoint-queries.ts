import { stat } from 'node:fs/promises';
import { AppError, isAppError } from '../../shared/errors';
import type { CheckpointDirectory, CheckpointEntry, ListOptions, SkippedPath } from './checkpoint-types';
import type { DroppedCheckpointData } from '../../shared/contract/checkpoints-live-contract';
import { listDropped, type DroppedCheckpoint, type DroppedContext } from './maintenance/dropped-area';
import { droppedNumberOf, parseCheckpointRef, pickCheckpoint } from './timeline/checkpoint-ref';
import type { DirRegistry } from './timeline/dir-registry';
import type { RefStore } from '../git-store';
import { loadStatCache } from './snapshot/stat-cache';
import { dirHash, statCacheFile, type StoreLayout } from '../git-store';
import { toCheckpointEntry, type Timeline } from './timeline/timeline';

/** What the read side of the service works on. */
export interface QueryContext {
  readonly layout: StoreLayout;
  readonly refs: RefStore;
  readonly registry: DirRegistry;
  readonly timeline: Timeline;
  /** The recently dropped area (resolve finds `dN` and dropped ids there). */
  readonly dropped: DroppedContext;
}

/** A directory's timeline head; `not_found` when the directory was never checkpointed. */
export async function timelineHead(
  context: QueryContext,
  dir: string,
): Promise<{ dirhash: string; head: string | undefined }> {
  const dirhash = dirHash(dir);
  const head = await context.refs.read(dirhash);
  // The registry only tells a timeline emptied by cuts from a folder never checkpointed: read it only then.
  if (head === undefined && (await context.registry.read(dirhash)) === undefined) {
    throw new AppError(
      'not_found',
      `${dir} has no checkpoints: it was never checkpointed. "vigil checkpoints status" lists the directories that were.`,
      { dir },
    );
  }
  return { dirhash, head };
}

/** A page of a directory's checkpoints, newest first. */
export async function listCheckpoints(
  context: QueryContext,
  dir: string,
  options: ListOptions = {},
): Promise<CheckpointEntry[]> {
  const { head } = await timelineHead(context, dir);
  const shallow = await context.refs.readShallow();
  const page = await context.timeline.walk(head, shallow, options.limit ?? 100, options.offset ?? 0);
  return page.map((item) => toCheckpointEntry(dir, item, shallow));
}

/** How many checkpoints a directory's timeline holds. */
export async function countCheckpoints(context: QueryContext, dir: string): Promise<number> {
  const { head } = await timelineHead(context, dir);
  return context.timeline.count(head, await context.refs.readShallow());
}

/** A directory's recently dropped checkpoints, numbered d1 = newest; those that expired are included, marked. */
export async function droppedCheckpoints(context: QueryContext, dir: string): Promise<DroppedCheckpointData[]> {
  const { dirhash, head } = await timelineHead(context, dir);
  const live = new Set((await context.timeline.walk(head, await context.refs.readShallow())).map((item) => item.id));
  return (await listDropped(context.dropped, dirhash, live)).map((entry, index) => ({ number: index + 1, ...entry }));
}

function localDate(iso: string): string {
  return new Date(iso).toLocaleString();
}

/** The error for a dropped checkpoint that has left the store: what it was, when it was dropped and when it expired. */
function expiredError(dir: string, entry: DroppedCheckpoint & { readonly number: number }): AppError {
  const why =
    entry.expiredBecause === 'space'
      ? 'to keep the store under its size cap (checkpoints.maxStoreMiB in config.json)'
      : 'when its days in the recently dropped area were up (checkpoints.keepDroppedDays in config.json)';
  return new AppError(
    'not_found',
    `Dropped checkpoint d${entry.number} of ${dir} (${entry.id.slice(0, 8)} "${entry.reason}", taken ${localDate(entry.time)}) was dropped on ${localDate(entry.droppedAt)} by ${entry.droppedBy} and expired on ${localDate(entry.expiredAt ?? entry.expiresAt)} ${why}: its content is no longer in the store. "vigil checkpoints list ${dir} --dropped" shows what can still be restored.`,
    { dir, id: entry.id, droppedAt: entry.droppedAt, expiredAt: entry.expiredAt },
  );
}

/** A dropped checkpoint as an entry restore and diff take, marked with where it is; expired ones are an error. */
async function droppedEntry(
  context: QueryContext,
  dir: string,
  pick: (entries: readonly DroppedCheckpointData[]) => DroppedCheckpointData | undefined,
): Promise<CheckpointEntry | undefined> {
  const picked = pick(await droppedCheckpoints(context, dir));
  if (picked === undefined) return undefined;
  if (picked.expiredAt !== undefined) throw expiredError(dir, picked);
  const commit = await context.timeline.commit(picked.id);
  const entry = toCheckpointEntry(dir, { id: picked.id, commit }, new Set());
  const { number, droppedAt, droppedBy, expiresAt } = picked;
  return { ...entry, dropped: { number, droppedAt, droppedBy, expiresAt } };
}

/** `dN`: the Nth newest dropped checkpoint; errors say what exists. */
async function resolveDropped(context: QueryContext, dir: string, number: number): Promise<CheckpointEntry> {
  let count = 0;
  const found = await droppedEntry(context, dir, (entries) => {
    count = entries.length;
    return entries[number - 1];
  });
  if (found !== undefined) return found;
  throw new AppError(
    count === 0 ? 'not_found' : 'invalid_request',
    count === 0
      ? `${dir} has no recently dropped checkpoints.`
      : `There is no dropped checkpoint d${number} for ${dir}: use d1–d${count} (d1 = newest; "vigil checkpoints list ${dir} --dropped").`,
    { field: 'checkpoint', count },
  );
}

/** The checkpoint a user named by number (1 = newest), `dN` (recently dropped) or id prefix (of either). */
export async function resolveCheckpoint(context: QueryContext, dir: string, ref: string): Promise<CheckpointEntry> {
  const droppedNumber = droppedNumberOf(ref);
  if (droppedNumber !== undefined) return resolveDropped(context, dir, droppedNumber);
  const parsed = parseCheckpointRef(ref);
  const { head } = await timelineHead(context, dir);
  const shallow = await context.refs.readShallow();
  const chain = await context.timeline.walk(head, shallow);
  let index: number;
  try {
    index = pickCheckpoint(
      parsed,
      chain.map((item) => item.id),
      dir,
    );
  } catch (error) {
    const prefix = parsed.prefix;
    if (prefix === undefined || !isAppError(error) || error.code !== 'not_found') throw error;
    // An id the timeline no longer holds: a chip or a plan may point at a dropped checkpoint.
    const found = await droppedEntry(context, dir, (entries) => entries.find((entry) => entry.id.startsWith(prefix)));
    if (found === undefined) throw error;
    return found;
  }
  const picked = chain[index];
  if (picked === undefined) throw new AppError('not_found', `No such checkpoint of ${dir}.`, { dir });
  return toCheckpointEntry(dir, picked, shallow);
}

/** Every directory with a timeline (or a registry record), newest activity first. */
export async function listDirectories(context: QueryContext): Promise<CheckpointDirectory[]> {
  const [heads, records, shallow] = await Promise.all([
    context.refs.list(),
    context.registry.list(),
    context.refs.readShallow(),
  ]);
  const hashes = new Set([...heads.keys(), ...records.keys()]);
  const out: CheckpointDirectory[] = [];
  for (const dirhash of hashes) {
    const record = records.get(dirhash);
    const head = heads.get(dirhash);
    const dir = record?.workdir ?? `(unknown directory ${dirhash})`;
    const count = await context.timeline.count(head, shallow).catch(() => 0);
    const exists =
      record !== undefined &&
      (await stat(record.workdir).then(
        (info) => info.isDirectory(),
        () => false,
      ));
    const headTime =
      head === undefined
        ? ''
        : await context.timeline.commit(head).then(
            (commit) => new Date(commit.time * 1000).toISOString(),
            () => '',
          );
    const registered = record?.lastTouch ?? '';
    const lastTouch = registered > headTime ? registered : headTime;
    out.push(
      head === undefined
        ? { dir, dirhash, count, lastTouch, exists }
        : { dir, dirhash, head, count, lastTouch, exists },
    );
  }
  return out.sort((a, b) => (a.lastTouch < b.lastTouch ? 1 : a.lastTouch > b.lastTouch ? -1 : 0));
}

/** The full list of what a directory's latest checkpoint left out: from the stat cache, else the commit's (capped) trailers. */
export async function skippedPaths(
  context: QueryContext,
  directory: CheckpointDirectory,
): Promise<readonly SkippedPath[]> {
  const cached = await loadStatCache(statCacheFile(context.layout, directory.dirhash), directory.dir);
  if (cached !== undefined && cached.head === directory.head) return cached.skippedPaths();
  if (directory.head === undefined) return [];
  return (await context.timeline.commit(directory.head)).skipped;
}
