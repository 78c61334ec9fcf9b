import type { RefStore } from './ref-store';
import type { Timeline, TimelineCommit } from './timeline';

/** The retention policy's defaults: Hermes' gateway default of 50 per directory, 500 MiB in all. */
export const defaultRetention = { maxSnapshots: 50, maxTotalBytes: 500 * 1024 * 1024 } as const;

/**
 * Keeps only the newest `keep` checkpoints of a timeline by marking the oldest kept one as a cut
 * point in git's `shallow` file: ids of kept checkpoints never change, git's own tools stop there,
 * and the dropped commits become unreachable (garbage collection deletes them). Returns how many
 * checkpoints were dropped.
 */
export async function cutTimeline(refs: RefStore, timeline: Timeline, head: string | undefined, keep: number): Promise<number> {
  if (head === undefined) return 0;
  const shallow = await refs.readShallow();
  const chain = await timeline.walk(head, shallow);
  if (chain.length <= keep) return 0;
  const cut = chain[Math.max(0, keep - 1)];
  if (cut === undefined) return 0;
  shallow.add(cut.id);
  await refs.writeShallow(shallow);
  return chain.length - keep;
}

/** One checkpoint that could be dropped to save space, with its timeline. */
export interface DroppableCheckpoint {
  readonly dirhash: string;
  readonly head: string;
  /** Its position from the head (0 = newest; the newest is never dropped). */
  readonly position: number;
  readonly time: number;
}

/** Every checkpoint but the newest of each timeline, oldest first: the order a size cap drops them in. */
export async function droppableByAge(refs: RefStore, timeline: Timeline): Promise<DroppableCheckpoint[]> {
  const shallow = await refs.readShallow();
  const all: DroppableCheckpoint[] = [];
  for (const [dirhash, head] of await refs.list()) {
    const chain: TimelineCommit[] = await timeline.walk(head, shallow);
    chain.forEach((item, position) => {
      if (position > 0) all.push({ dirhash, head, position, time: item.commit.time });
    });
  }
  return all.sort((a, b) => a.time - b.time);
}

/**
 * Drops the oldest `count` droppable checkpoints across all timelines (each timeline keeps at
 * least its newest). Returns how many were dropped.
 */
export async function dropOldest(refs: RefStore, timeline: Timeline, count: number): Promise<number> {
  const victims = (await droppableByAge(refs, timeline)).slice(0, count);
  const keepPerTimeline = new Map<string, { head: string; keep: number }>();
  for (const victim of victims) {
    const current = keepPerTimeline.get(victim.dirhash);
    const keep = Math.min(current?.keep ?? Number.POSITIVE_INFINITY, victim.position);
    keepPerTimeline.set(victim.dirhash, { head: victim.head, keep });
  }
  let dropped = 0;
  for (const { head, keep } of keepPerTimeline.values()) dropped += await cutTimeline(refs, timeline, head, Math.max(1, keep));
  return dropped;
}
