import type { TurnBrief } from '../../shared/contract/sessions-contract';
import { maskSecretValues } from '../../shared/secrets/mask-secret-values';
import { turnChanges } from '../../shared/sessions/turn-changes';
import { escapeControls } from '../../shared/text/control-characters';
import { reasonCategory, type ReasonCategory, type TimelineEntry } from './timeline-filter';

/** The longest title kept for a row (the row ellipsizes what does not fit; the transcript keeps the whole message). */
const maxTitleLength = 240;

/**
 * One clean line of a text for a title: its first non-blank line, whitespace collapsed, control
 * characters escaped, cut at `maxTitleLength`; an ellipsis says that more followed (more lines,
 * or a longer line).
 */
export function oneLine(text: string): string {
  const lines = text.split(/\r\n|\r|\n|\u2028|\u2029/u).map((line) => line.replace(/[\t ]+/gu, ' ').trim());
  const index = lines.findIndex((line) => line !== '');
  if (index === -1) return '';
  const first = escapeControls(lines[index] ?? '');
  const hasMore = lines.slice(index + 1).some((line) => line !== '');
  if (first.length > maxTitleLength) return `${first.slice(0, maxTitleLength - 1)}…`;
  return hasMore ? `${first} …` : first;
}

/** A call as a row's words say it: `write_file src/app.ts`, `terminal: rm -rf legacy`, `memory: add memory`. */
function callWords(call: TurnBrief['calls'][number], dir: string): string {
  const summary = call.summary.startsWith(`${dir}/`) ? call.summary.slice(dir.length + 1) : call.summary;
  return call.name === 'terminal' || call.name === 'memory' ? `${call.name}: ${summary}` : `${call.name} ${summary}`;
}

/** Where a row's title comes from: the name given to the checkpoint, the turn's user message, a summary of its calls, or the checkpoint's reason. */
export type TitleSource = 'name' | 'message' | 'calls' | 'reason';

/**
 * A checkpoint row's title: the name a person gave it (rename); else the first line of its turn's user message when the agent sent one;
 * else its turn's calls in this directory ("write_file src/app.ts", "terminal: rm -rf legacy",
 * "+2 more"); else its reason as the commit says it.
 */
export function rowTitle(
  entry: TimelineEntry,
  brief: TurnBrief | undefined,
  dir: string,
): { readonly text: string; readonly source: TitleSource } {
  const name = entry.name === undefined ? '' : oneLine(entry.name);
  if (name !== '') return { text: name, source: 'name' };
  const message = brief?.title === undefined ? '' : oneLine(maskSecretValues(brief.title));
  if (message !== '') return { text: message, source: 'message' };
  const calls = brief?.calls.filter((call) => call.decision === 'allowed' || call.decision === 'asked-allowed') ?? [];
  const here = calls.filter((call) => call.directories.includes(dir));
  const chosen = here.length > 0 ? here : calls;
  const first = chosen[0];
  if (first !== undefined) {
    const more = (here.length > 0 ? here.length : (brief?.callCount ?? chosen.length)) - 1;
    return {
      text: `${oneLine(maskSecretValues(callWords(first, dir)))}${more > 0 ? ` (+${more} more)` : ''}`,
      source: 'calls',
    };
  }
  return { text: reasonTitle(entry), source: 'reason' };
}

/** A checkpoint's reason as a title: the engine's words for restore points and checkpoints by hand, the commit subject otherwise. */
function reasonTitle(entry: TimelineEntry): string {
  if (entry.kind === 'pre-rollback')
    return entry.restores === undefined
      ? 'Restore point taken before a restore'
      : `Restore point taken before restoring ${entry.restores.slice(0, 8)}`;
  if (entry.reason === 'manual checkpoint') return 'Checkpoint taken by hand';
  return oneLine(entry.reason);
}

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
