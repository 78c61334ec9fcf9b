import { stat } from 'node:fs/promises';
import { AppError } from '../../shared/errors';
import type { CheckpointDirectory, CheckpointEntry, ListOptions, SkippedPath } from './checkpoint-types';
import { parseCheckpointRef, pickCheckpoint } from './timeline/checkpoint-ref';
import type { DirRegistry } from './timeline/dir-registry';
import type { RefStore } from './store/ref-store';
import { loadStatCache } from './snapshot/stat-cache';
import { dirHash, statCacheFile, type StoreLayout } from './store/store-layout';
import { toCheckpointEntry, type Timeline } from './timeline/timeline';

/** What the read side of the service works on. */
export interface QueryContext {
  readonly layout: StoreLayout;
  readonly refs: RefStore;
  readonly registry: DirRegistry;
  readonly timeline: Timeline;
}

/** A directory's timeline head; `not_found` when the directory was never checkpointed. */
export async function timelineHead(
  context: QueryContext,
  dir: string,
): Promise<{ dirhash: string; head: string | undefined }> {
  const dirhash = dirHash(dir);
  const [head, record] = await Promise.all([context.refs.read(dirhash), context.registry.read(dirhash)]);
  if (head === undefined && record === undefined) {
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

/** The checkpoint a user named by number (1 = newest) or id prefix. */
export async function resolveCheckpoint(context: QueryContext, dir: string, ref: string): Promise<CheckpointEntry> {
  const parsed = parseCheckpointRef(ref);
  const { head } = await timelineHead(context, dir);
  const shallow = await context.refs.readShallow();
  const chain = await context.timeline.walk(head, shallow);
  const index = pickCheckpoint(
    parsed,
    chain.map((item) => item.id),
    dir,
  );
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
