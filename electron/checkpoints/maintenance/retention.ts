import type { CutReason } from '../../../shared/contract/checkpoints-live-contract';
import type { RefStore } from '../../git-store';
import { defaultKeepDroppedDays, keepDropped } from './dropped-area';
import type { Timeline, TimelineCommit } from '../timeline/timeline';

/** The retention policy's defaults: Hermes' gateway default of 50 per directory, 500 MiB in all. */
export const defaultRetention = {
  maxSnapshots: 50,
  maxTotalBytes: 500 * 1024 * 1024,
  keepDroppedDays: defaultKeepDroppedDays,
} as const;

/** Files larger than this are not stored (config.json's `checkpoints.maxFileMiB`, 50 by default): one cap for every file, tracked or not. */
export const defaultMaxFileBytes = 50 * 1024 * 1024;

/** What a timeline cut must respect. */
export interface CutOptions {
  /** Pinned checkpoints and those being restored right now (in this process): never cut off. */
  readonly pinned: ReadonlySet<string>;
  /** Fails unless the store lock is still ours; called right before the shallow list changes. */
  readonly assertHeld: () => Promise<void>;
}

/**
 * How many of a timeline's newest commits a cut must keep so that nothing protected is dropped:
 * a pinned checkpoint (a restore in progress), and the checkpoint the newest pre-rollback
 * snapshot among the `keep` newest restores to — so a restore that failed or was interrupted can
 * be run again, however many checkpoints its own pre-rollback snapshot pushed out.
 */
function protectedLength(chain: readonly TimelineCommit[], keep: number, pinned: ReadonlySet<string>): number {
  const wanted = new Set(pinned);
  const newestPreRollback = chain
    .slice(0, keep)
    .find((item) => item.commit.kind === 'pre-rollback' && item.commit.restores !== undefined);
  if (newestPreRollback?.commit.restores !== undefined) wanted.add(newestPreRollback.commit.restores);
  let length = 0;
  chain.forEach((item, index) => {
    if (wanted.has(item.id)) length = index + 1;
  });
  return length;
}

/** The timeline a cut applies to. */
export interface CutTarget {
  readonly dirhash: string;
  readonly head: string | undefined;
  /**
   * The shallow list as already read under this same hold of the store lock (only a holder writes
   * it, so it cannot have changed since); read here when omitted.
   */
  readonly shallow?: ReadonlySet<string>;
}

/** A cut made ready: the dropped checkpoints' ref is durable and the new shallow list staged, not yet in place. */
export interface StagedCut {
  /** How many checkpoints the cut drops. */
  readonly dropped: number;
  /** Lets go of the dropped checkpoints: the staged shallow list replaces the list (the lock is checked first). */
  readonly commit: () => Promise<void>;
  /** Leaves the timeline as it was: the staged list and the dropped ref are removed. */
  readonly discard: () => Promise<void>;
}

/**
 * Keeps only the newest `keep` checkpoints of a timeline (more when a protected one is older, see
 * `protectedLength`) by marking the oldest kept one as a cut point in git's `shallow` file: ids of
 * kept checkpoints never change and git's own tools stop there. The dropped ones go to the
 * recently dropped area first (a ref keeps them reachable: see dropped-area.ts for the order of
 * the steps, which makes a kill at any point safe). Returns how many checkpoints were dropped.
 */
export async function cutTimeline(
  refs: RefStore,
  timeline: Timeline,
  target: CutTarget,
  keep: number,
  reason: CutReason,
  given: CutOptions | (() => Promise<CutOptions>),
): Promise<number> {
  const staged = await stageCut(refs, timeline, target, keep, reason, given);
  await staged?.commit();
  return staged?.dropped ?? 0;
}

/**
 * The first half of `cutTimeline`: works the cut out and makes its dropped ref durable while the new
 * shallow list is written and fsynced under a temp name; undefined when nothing is to be cut. A
 * checkpoint stages its cut (from its new commit, `target.head`) while its own objects are made
 * durable, and commits it once its ref has moved.
 */
export async function stageCut(
  refs: RefStore,
  timeline: Timeline,
  target: CutTarget,
  keep: number,
  reason: CutReason,
  given: CutOptions | (() => Promise<CutOptions>),
): Promise<StagedCut | undefined> {
  if (target.head === undefined) return undefined;
  const shallow = target.shallow === undefined ? await refs.readShallow() : new Set(target.shallow);
  const chain = await timeline.walk(target.head, shallow);
  // Within the limit nothing is cut, whatever is protected: the pins need not be read.
  if (chain.length <= keep) return undefined;
  const options = typeof given === 'function' ? await given() : given;
  const kept = Math.max(keep, protectedLength(chain, keep, options.pinned));
  if (chain.length <= kept) return undefined;
  const cut = chain[Math.max(0, kept - 1)];
  const newestDropped = chain[kept];
  if (cut === undefined || newestDropped === undefined) return undefined;
  await options.assertHeld();
  // 1. The dropped checkpoints get their own ref, durably, before 2. the timeline lets go of them.
  // The new shallow list is written and fsynced under a temp name meanwhile: only its rename lets go.
  shallow.add(cut.id);
  const [dropped, staged] = await Promise.allSettled([
    keepDropped(refs, target.dirhash, newestDropped.id, reason),
    refs.stageShallow(shallow),
  ]);
  if (dropped.status === 'rejected' || staged.status === 'rejected') {
    if (staged.status === 'fulfilled') await staged.value.discard();
    throw dropped.status === 'rejected' ? dropped.reason : (staged as PromiseRejectedResult).reason;
  }
  return {
    dropped: chain.length - kept,
    commit: async () => {
      try {
        await options.assertHeld();
        await staged.value.commit();
      } catch (error) {
        await staged.value.discard();
        throw error;
      }
    },
    discard: async () => {
      await staged.value.discard();
      await refs.removeDropped(target.dirhash, dropped.value);
    },
  };
}

/** One checkpoint that could be dropped to save space, with its timeline. */
export interface DroppableCheckpoint {
  readonly dirhash: string;
  readonly head: string;
  /** Its position from the head (0 = newest; the newest is never dropped). */
  readonly position: number;
  readonly time: number;
}

/**
 * Every checkpoint that may go to save space, oldest first: the order a size cap drops them in.
 * Never the newest of a timeline, never a pinned one nor any newer than it (a cut keeps everything
 * down to its oldest protected checkpoint).
 */
export async function droppableByAge(
  refs: RefStore,
  timeline: Timeline,
  pinned: ReadonlySet<string> = new Set(),
): Promise<DroppableCheckpoint[]> {
  const shallow = await refs.readShallow();
  const all: DroppableCheckpoint[] = [];
  for (const [dirhash, head] of await refs.list()) {
    const chain: TimelineCommit[] = await timeline.walk(head, shallow);
    const kept = Math.max(1, protectedLength(chain, 1, pinned));
    chain.forEach((item, position) => {
      if (position >= kept) all.push({ dirhash, head, position, time: item.commit.time });
    });
  }
  return all.sort((a, b) => a.time - b.time);
}

/**
 * Drops the oldest `count` droppable checkpoints across all timelines (each timeline keeps at
 * least its newest, and its pinned ones). Returns how many were dropped from each timeline and
 * how many each kept, by directory hash.
 */
export async function dropOldest(
  refs: RefStore,
  timeline: Timeline,
  count: number,
  options: CutOptions,
): Promise<Map<string, { readonly dropped: number; readonly kept: number }>> {
  const victims = (await droppableByAge(refs, timeline, options.pinned)).slice(0, count);
  const keepPerTimeline = new Map<string, { head: string; keep: number }>();
  for (const victim of victims) {
    const current = keepPerTimeline.get(victim.dirhash);
    const keep = Math.min(current?.keep ?? Number.POSITIVE_INFINITY, victim.position);
    keepPerTimeline.set(victim.dirhash, { head: victim.head, keep });
  }
  const dropped = new Map<string, { dropped: number; kept: number }>();
  for (const [dirhash, { head, keep }] of keepPerTimeline) {
    const count = await cutTimeline(refs, timeline, { dirhash, head }, Math.max(1, keep), 'size-cap', options);
    if (count > 0) dropped.set(dirhash, { dropped: count, kept: await timeline.count(head, await refs.readShallow()) });
  }
  return dropped;
}
