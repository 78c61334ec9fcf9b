import type { CheckpointEntry, CheckpointStats, ParsedCommit } from '../checkpoints';
import type { HermesStoreKind } from './hermes-store-locator';

/** One commit of a Hermes timeline, with where it lives. */
export interface HermesCommit {
  readonly id: string;
  readonly commit: ParsedCommit;
  /** The git directory it was read from. */
  readonly gitdir: string;
  readonly kind: HermesStoreKind;
}

/** Hermes's subject for the snapshot it takes before `/rollback`: `pre-rollback snapshot (restoring to 1a2b3c4d)`. */
const preRollbackSubject = /^pre-rollback snapshot \(restoring to ([0-9a-f]{4,40})\)/;

/** The stats of a commit not yet computed (the list fills them in for the page it shows). */
export const unknownStats: CheckpointStats = { files: 0, insertions: 0, deletions: 0 };

/**
 * A Hermes commit as a timeline entry: source `hermes`, agent `hermes`, Hermes's reason as its
 * subject; Hermes's own pre-rollback snapshots are marked as such, with the restored checkpoint's
 * full id when the short id in the subject names exactly one commit of the same timeline (Hermes
 * rewrites its history when it prunes, so the restored commit may be gone).
 */
export function hermesEntry(
  dir: string,
  item: HermesCommit,
  timeline: readonly HermesCommit[],
  stats: CheckpointStats,
): CheckpointEntry {
  const { commit } = item;
  const prefix = preRollbackSubject.exec(commit.subject)?.[1];
  const matches = prefix === undefined ? [] : timeline.filter((other) => other.id.startsWith(prefix));
  const restores = matches.length === 1 ? matches[0]?.id : undefined;
  const parent = commit.parents[0];
  return {
    id: item.id,
    dir,
    time: new Date(commit.time * 1000).toISOString(),
    reason: commit.subject === '' ? '(no reason recorded)' : commit.subject,
    attribution: { agent: 'hermes' },
    kind: prefix === undefined ? 'checkpoint' : 'pre-rollback',
    restores,
    stats,
    skipped: [],
    tree: commit.tree,
    parent,
    source: 'hermes',
  };
}

/**
 * Merges timelines that are each newest first into one, newest first. Each input keeps its own
 * order (a chain is never reordered, even when clocks went backwards); between inputs the newer
 * head goes first, and on equal times the earlier input wins, so the order is the same every time.
 */
export function mergeNewestFirst<T>(lists: readonly (readonly T[])[], timeOf: (item: T) => number): T[] {
  const positions = lists.map(() => 0);
  const out: T[] = [];
  for (;;) {
    let best = -1;
    let bestTime = Number.NEGATIVE_INFINITY;
    for (const [index, list] of lists.entries()) {
      const candidate = list[positions[index] ?? 0];
      if (candidate === undefined) continue;
      const time = timeOf(candidate);
      if (best < 0 || time > bestTime) {
        best = index;
        bestTime = time;
      }
    }
    if (best < 0) return out;
    const list = lists[best] ?? [];
    const position = positions[best] ?? 0;
    const picked = list[position];
    if (picked !== undefined) out.push(picked);
    positions[best] = position + 1;
  }
}
