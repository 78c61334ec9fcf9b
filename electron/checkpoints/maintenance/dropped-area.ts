/**
 * The "recently dropped" area: checkpoints a cut (retention, the size cap, a prune) took off a
 * timeline stay in the store, listed and restorable, for `keepDroppedDays` (7 by default).
 *
 * On disk, one batch per cut: `refs/vigil-dropped/<dirhash>/<droppedAt ms>-<reason>` names the
 * newest checkpoint the cut dropped; the batch runs from there along first parents down to the
 * next cut point of the shallow list (where the timeline had been cut before). Being a ref, it
 * keeps the batch reachable for Vigil's garbage collector and for git's own (`git fsck`, `git gc`).
 *
 * Crash safety, by order (each step durable before the next; what `crash` tests kill between):
 *  1. the dropped ref is written and fsynced with its folders (`RefStore.writeDropped`);
 *  2. then the shallow list gets the new cut point (`RefStore.writeShallow`);
 *  3. then the cut is recorded in cuts.jsonl.
 * A kill after 1 leaves a ref to checkpoints that are still on the timeline: listing skips them and
 * expiry deletes the ref harmlessly. Expiry, the other way round: the tombstone (dropped-expired.jsonl,
 * fsynced) first, then the ref is deleted, then a later collection deletes the objects; a kill after
 * the tombstone leaves the batch listed (the ref wins) until the next expiry.
 */
import { appendFile, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CutReason } from '../../../shared/contract/checkpoints-live-contract';
import { writeFileDurably } from '../../git-store';
import type { DroppedRef, RefStore } from '../../git-store';
import type { Timeline } from '../timeline/timeline';

/** How long dropped checkpoints are kept, by default (config.json's `checkpoints.keepDroppedDays`). */
export const defaultKeepDroppedDays = 7;

const dayMs = 24 * 60 * 60 * 1000;
/** Expired batches remembered (so "restore DIR dN" can say when one expired), newest kept. */
const keptTombstones = 2_000;

/** One dropped checkpoint, as `list --dropped` shows it. */
export interface DroppedCheckpoint {
  readonly id: string;
  /** When the checkpoint was taken. */
  readonly time: string;
  /** Its commit subject. */
  readonly reason: string;
  readonly droppedAt: string;
  readonly droppedBy: CutReason;
  /** When it leaves the store (or left it, when `expiredAt` is set). */
  readonly expiresAt: string;
  /** Set once it has left the store: its content is gone. */
  readonly expiredAt?: string;
  /** Why it left: its days were up, or the store needed the room (its size cap). */
  readonly expiredBecause?: 'age' | 'space';
}

/** A record of an expired batch (one line of dropped-expired.jsonl). */
interface Tombstone {
  readonly dirhash: string;
  readonly ref: string;
  readonly droppedAt: string;
  readonly droppedBy: CutReason;
  readonly expiredAt: string;
  readonly because: 'age' | 'space';
  readonly checkpoints: readonly { readonly id: string; readonly time: string; readonly reason: string }[];
}

/** Where expired batches are remembered: `$VIGIL_HOME/checkpoints/dropped-expired.jsonl`. */
export function tombstoneFile(root: string): string {
  return path.join(root, 'dropped-expired.jsonl');
}

/** When and why a dropped ref's batch was cut, from its name. */
export function parseDroppedName(name: string): { readonly droppedAt: number; readonly droppedBy: CutReason } {
  const [at, reason] = name.split('-', 2) as [string, string];
  const droppedBy: CutReason = reason === 'size' ? 'size-cap' : (reason as CutReason);
  return { droppedAt: Number(at), droppedBy };
}

/**
 * Step 1 of a cut: keeps `newestDropped` (and the older checkpoints of its batch) reachable under
 * a new dropped ref, durably. The store lock must be held.
 */
export async function keepDropped(
  refs: RefStore,
  dirhash: string,
  newestDropped: string,
  droppedBy: CutReason,
  now = Date.now(),
): Promise<string> {
  // Any file by that name is taken, whatever it holds: a cut never replaces an earlier batch's ref.
  const taken = await refs.droppedNames(dirhash);
  let name = `${now}-${droppedBy}`;
  for (let suffix = 1; taken.has(name); suffix += 1) name = `${now}-${droppedBy}-${suffix}`;
  await refs.writeDropped(dirhash, name, newestDropped);
  return name;
}

/** The checkpoints of one dropped batch, newest first. */
async function batchOf(timeline: Timeline, ref: DroppedRef, shallow: ReadonlySet<string>) {
  return timeline.walk(ref.head, shallow);
}

async function readTombstones(root: string, dirhash?: string): Promise<Tombstone[]> {
  const text = await readFile(tombstoneFile(root), 'utf8').catch(() => '');
  const out: Tombstone[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as Tombstone;
      if (Array.isArray(value.checkpoints) && (dirhash === undefined || value.dirhash === dirhash)) out.push(value);
    } catch {
      // A torn last line after a crash: the batch it would name is listed again by its ref, or not at all.
    }
  }
  return out;
}

/** Everything a look at the dropped area needs. */
export interface DroppedContext {
  /** `$VIGIL_HOME/checkpoints` (the tombstone file lives there). */
  readonly root: string;
  readonly refs: RefStore;
  readonly timeline: Timeline;
  readonly keepDroppedDays: number;
}

/**
 * A directory's dropped checkpoints, newest first: those still in the store and those that
 * expired (marked with when), by the time they were dropped. Checkpoints still on the live timeline (a
 * cut killed between its two steps) are left out.
 */
export async function listDropped(
  context: DroppedContext,
  dirhash: string,
  live: ReadonlySet<string>,
): Promise<DroppedCheckpoint[]> {
  const shallow = await context.refs.readShallow();
  const out: DroppedCheckpoint[] = [];
  const seen = new Set(live);
  const refs = (await context.refs.listDropped(dirhash)).sort(
    (a, b) => parseDroppedName(b.name).droppedAt - parseDroppedName(a.name).droppedAt,
  );
  for (const ref of refs) {
    const { droppedAt, droppedBy } = parseDroppedName(ref.name);
    const expiresAt = new Date(droppedAt + context.keepDroppedDays * dayMs).toISOString();
    for (const item of await batchOf(context.timeline, ref, shallow)) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      out.push({
        id: item.id,
        time: new Date(item.commit.time * 1000).toISOString(),
        reason: item.commit.subject,
        droppedAt: new Date(droppedAt).toISOString(),
        droppedBy,
        expiresAt,
      });
    }
  }
  for (const tombstone of (await readTombstones(context.root, dirhash)).reverse()) {
    for (const checkpoint of tombstone.checkpoints) {
      if (seen.has(checkpoint.id)) continue;
      seen.add(checkpoint.id);
      out.push({
        ...checkpoint,
        droppedAt: tombstone.droppedAt,
        droppedBy: tombstone.droppedBy,
        expiresAt: tombstone.expiredAt,
        expiredAt: tombstone.expiredAt,
        expiredBecause: tombstone.because,
      });
    }
  }
  // Batches newest cut first, each newest checkpoint first (a timeline is a line: a later cut holds newer ones).
  return out.sort((a, b) => (a.droppedAt < b.droppedAt ? 1 : a.droppedAt > b.droppedAt ? -1 : 0));
}

/** The dropped batches of every directory, oldest cut first (the order the size cap empties them in). */
export async function droppedBatches(refs: RefStore): Promise<DroppedRef[]> {
  return (await refs.listDropped()).sort(
    (a, b) => parseDroppedName(a.name).droppedAt - parseDroppedName(b.name).droppedAt,
  );
}

/**
 * Lets one batch leave the store: its tombstone is appended and fsynced, then its ref deleted (a
 * later collection deletes its objects). The store lock must be held.
 */
export async function expireBatch(
  context: DroppedContext,
  ref: DroppedRef,
  because: 'age' | 'space',
  now = Date.now(),
): Promise<number> {
  const { droppedAt, droppedBy } = parseDroppedName(ref.name);
  const batch = await batchOf(context.timeline, ref, await context.refs.readShallow());
  const tombstone: Tombstone = {
    dirhash: ref.dirhash,
    ref: ref.name,
    droppedAt: new Date(droppedAt).toISOString(),
    droppedBy,
    expiredAt: new Date(now).toISOString(),
    because,
    checkpoints: batch.map((item) => ({
      id: item.id,
      time: new Date(item.commit.time * 1000).toISOString(),
      reason: item.commit.subject,
    })),
  };
  const file = tombstoneFile(context.root);
  await appendFile(file, `${JSON.stringify(tombstone)}\n`);
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await context.refs.removeDropped(ref.dirhash, ref.name);
  await trimTombstones(context.root);
  return batch.length;
}

/** Expires every batch whose days are up, unless it holds a protected checkpoint; how many checkpoints left. */
export async function expireByAge(
  context: DroppedContext,
  protectedIds: ReadonlySet<string>,
  now = Date.now(),
): Promise<number> {
  let expired = 0;
  const shallow = await context.refs.readShallow();
  for (const ref of await droppedBatches(context.refs)) {
    if (parseDroppedName(ref.name).droppedAt + context.keepDroppedDays * dayMs > now) continue;
    const batch = await batchOf(context.timeline, ref, shallow);
    if (batch.some((item) => protectedIds.has(item.id))) continue;
    expired += await expireBatch(context, ref, 'age', now);
  }
  return expired;
}

async function trimTombstones(root: string): Promise<void> {
  const text = await readFile(tombstoneFile(root), 'utf8').catch(() => '');
  const lines = text.split('\n').filter((line) => line !== '');
  if (lines.length <= keptTombstones) return;
  await writeFileDurably(tombstoneFile(root), `${lines.slice(-keptTombstones).join('\n')}\n`);
}
