import type { TurnBrief } from '../../shared/contract/sessions-contract';
import { checkpointTitle, oneLine, type TitleSource } from '../../shared/sessions/checkpoint-title';
import { turnChanges } from '../../shared/sessions/turn-changes';
import { reasonCategory, type ReasonCategory, type TimelineEntry } from './timeline-filter';

/**
 * A checkpoint row's title: the name a person gave it, else its turn's user message, else its
 * turn's calls in this directory, else its reason (shared with `vigil checkpoints list`).
 */
export function rowTitle(
  entry: TimelineEntry,
  brief: TurnBrief | undefined,
  dir: string,
): { readonly text: string; readonly source: TitleSource } {
  return checkpointTitle(entry, brief, dir);
}

export { oneLine, type TitleSource };

/** The chip of each reason kind. */
export const reasonChips: Readonly<Record<ReasonCategory, string>> = {
  edit: 'file edit',
  terminal: 'command',
  memory: 'memory',
  manual: 'by hand',
  'restore-point': 'undo restore',
  other: 'checkpoint',
};

/** The reason kind of a checkpoint, as its chip says it. */
export function reasonChip(entry: TimelineEntry): { readonly kind: ReasonCategory; readonly label: string } {
  const kind = reasonCategory(entry);
  return { kind, label: reasonChips[kind] };
}

/** Line and file counts of a change. */
export interface ChangeCounts {
  readonly files: number;
  readonly insertions: number;
  readonly deletions: number;
}

/**
 * What a row's stats measure: a session turn's own changes in the folder (its changeset; `all`:
 * every actor's changes after the checkpoint, a separate figure), or the changes after its
 * checkpoint, up to the next one, or up to the live folder for the newest.
 */
export type StatsAfter =
  | {
      readonly scope: 'turn';
      readonly counts: ChangeCounts;
      readonly isPartlyCounted: boolean;
      readonly all: Exclude<StatsAfter, { readonly scope: 'turn' }>;
    }
  | { readonly scope: 'next'; readonly counts: ChangeCounts }
  /** `note`, when there are no counts: why (comparing now, or not current: the folder changed, the core cannot be asked). */
  | { readonly scope: 'live'; readonly counts: ChangeCounts | undefined; readonly note: string }
  | undefined;

/** Every actor's changes after a checkpoint (what a row that is not a session turn's counts). */
export type FolderStats = Exclude<StatsAfter, { readonly scope: 'turn' }>;

/** Where the newest row's comparison with the live folder stands. */
export type LiveState = 'comparing' | 'current' | 'stale' | 'offline' | 'unknown';

/** What the newest row says while its live counts are not current. */
const liveNotes: Readonly<Record<Exclude<LiveState, 'current'>, string>> = {
  comparing: 'comparing with the live folder…',
  unknown: 'comparing with the live folder…',
  stale: 'the live folder changed: comparing again…',
  offline: 'live changes not known: not connected',
};

/**
 * For each checkpoint, the changes made after it up to the next one: the counts the next
 * checkpoint recorded against its parent, by the parent's id. A checkpoint whose next one is not
 * its child (another store's) has none.
 */
export function changesAfter(entries: readonly TimelineEntry[]): ReadonlyMap<string, ChangeCounts> {
  const after = new Map<string, ChangeCounts>();
  for (const entry of entries) if (entry.parent !== undefined) after.set(entry.parent, entry.stats);
  return after;
}

/** A row's stats: up to the next checkpoint, or (for the newest) up to the live folder as last compared. */
export function statsAfter(
  entry: TimelineEntry,
  isNewest: boolean,
  after: ReadonlyMap<string, ChangeCounts>,
  live: { readonly counts: ChangeCounts | undefined; readonly state: LiveState },
): FolderStats {
  if (isNewest) {
    const isCurrent = live.state === 'current' && live.counts !== undefined;
    return {
      scope: 'live',
      counts: isCurrent ? live.counts : undefined,
      note: live.state === 'current' ? liveNotes.comparing : liveNotes[live.state],
    };
  }
  const counts = after.get(entry.id);
  return counts === undefined ? undefined : { scope: 'next', counts };
}

/**
 * A row's stats: a session turn's checkpoint counts its turn's own changeset in the folder (the
 * numbers `vigil sessions show ID --turn N` prints), with every actor's changes after it as a
 * separate figure; other rows count what changed after them.
 */
export function rowStats(
  entry: TimelineEntry,
  brief: TurnBrief | undefined,
  dir: string,
  all: FolderStats,
): StatsAfter {
  if (brief === undefined || entry.kind === 'pre-rollback' || entry.attribution.sessionId === undefined) return all;
  const own = turnChanges([{ effects: brief.effects, effectsOmitted: brief.effectsOmitted }], dir);
  return { scope: 'turn', counts: own.counts, isPartlyCounted: own.isPartlyCounted, all };
}
