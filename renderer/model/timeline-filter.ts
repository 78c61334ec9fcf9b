import type { z } from 'zod';
import { actorKey, actorOfCheckpoint, type Actor } from '../../shared/contract/actor-model';
import type { checkpointEntrySchema } from '../../shared/contract/checkpoints-contract';

/** One checkpoint of a directory's timeline, as the contract carries it. */
export type TimelineEntry = z.infer<typeof checkpointEntrySchema>;

/** What caused a checkpoint, in the groups the reason filter offers. */
export type ReasonCategory = 'edit' | 'terminal' | 'memory' | 'manual' | 'restore-point' | 'other';

/** The reason filter's choices, in menu order, with their labels. */
export const reasonChoices: readonly (readonly [ReasonCategory | 'all', string])[] = [
  ['all', 'All reasons'],
  ['edit', 'File edits'],
  ['terminal', 'Terminal'],
  ['memory', 'Memory'],
  ['manual', 'By hand'],
  ['restore-point', 'Restore points'],
  ['other', 'Other'],
];

/** Tools whose checkpoints are file edits: Vigil's own, and the agents' own tools reported through their hooks. */
const editTools: ReadonlySet<string> = new Set([
  'write_file',
  'patch',
  'Write',
  'Edit',
  'MultiEdit',
  'NotebookEdit',
  'replace',
]);
/** Shell tools: Vigil's terminal, Claude Code's Bash, Gemini CLI's run_shell_command. */
const terminalTools: ReadonlySet<string> = new Set(['terminal', 'Bash', 'run_shell_command']);

/** The group a checkpoint's reason falls in. */
export function reasonCategory(entry: TimelineEntry): ReasonCategory {
  if (entry.kind === 'pre-rollback') return 'restore-point';
  // Taken by hand (`vigil checkpoint DIR --reason R`, "Checkpoint now"), whatever the reason says.
  if (entry.attribution.origin === 'manual') return 'manual';
  const tool = entry.attribution.tool ?? '';
  const reason = entry.reason.toLowerCase();
  if (editTools.has(tool) || reason.startsWith('before write_file') || reason.startsWith('before patch')) return 'edit';
  if (terminalTools.has(tool) || reason.startsWith('before terminal')) return 'terminal';
  if (tool === 'memory' || reason.includes('memory')) return 'memory';
  if (entry.attribution.sessionId === undefined && reason.includes('manual')) return 'manual';
  return 'other';
}

/** The timeline's filter: actors (empty: all; a session id, or `@app`, `@cli`, `@vigil`, `@outside`), a reason group, and text. */
export interface TimelineFilter {
  readonly actors: readonly string[];
  readonly reason: ReasonCategory | 'all';
  /** Matches the reason, tool, agent, session id or checkpoint id (case-insensitive). */
  readonly text: string;
}

/** No filter. */
export const noTimelineFilter: TimelineFilter = { actors: [], reason: 'all', text: '' };

/** Whether a filter lets everything through. */
export function isFilterEmpty(filter: TimelineFilter): boolean {
  return filter.actors.length === 0 && filter.reason === 'all' && filter.text.trim() === '';
}

/** Whether one entry passes the filter. */
export function matchesFilter(entry: TimelineEntry, filter: TimelineFilter): boolean {
  if (filter.actors.length > 0 && !filter.actors.includes(actorKey(actorOfCheckpoint(entry)))) return false;
  if (filter.reason !== 'all' && reasonCategory(entry) !== filter.reason) return false;
  const text = filter.text.trim().toLowerCase();
  if (text === '') return true;
  const haystack = [
    entry.name,
    entry.reason,
    entry.attribution.tool,
    entry.attribution.agent,
    entry.attribution.sessionId,
    entry.id,
    entry.restores,
  ]
    .filter((part): part is string => part !== undefined)
    .join('\n')
    .toLowerCase();
  return haystack.includes(text);
}

/** The entries that pass, in timeline order; the same array when the filter is empty (no copy of 10,000 rows). */
export function filterTimeline(entries: readonly TimelineEntry[], filter: TimelineFilter): readonly TimelineEntry[] {
  return isFilterEmpty(filter) ? entries : entries.filter((entry) => matchesFilter(entry, filter));
}

/**
 * A timeline with entries added, de-duplicated by id, newest first: live checkpoints go in front,
 * older pages behind. Nothing is sorted by time: the engine's chain order is the truth (commit
 * times have one-second resolution, so ties are common).
 */
export function mergeEntries(
  existing: readonly TimelineEntry[],
  incoming: readonly TimelineEntry[],
  where: 'newer' | 'older',
): readonly TimelineEntry[] {
  if (incoming.length === 0) return existing;
  const known = new Set(existing.map((entry) => entry.id));
  const fresh = incoming.filter((entry) => !known.has(entry.id));
  if (fresh.length === 0) return existing;
  return where === 'newer' ? [...fresh, ...existing] : [...existing, ...fresh];
}

/** The actors that appear in a timeline (sessions, the app, the CLI, Vigil, outside), with how many checkpoints each caused, in order of first appearance. */
export function actorsInTimeline(
  entries: readonly TimelineEntry[],
): readonly { readonly key: string; readonly actor: Actor; readonly count: number }[] {
  const found = new Map<string, { key: string; actor: Actor; count: number }>();
  for (const entry of entries) {
    const actor = actorOfCheckpoint(entry);
    const key = actorKey(actor);
    const current = found.get(key);
    if (current === undefined) found.set(key, { key, actor, count: 1 });
    else current.count += 1;
  }
  return [...found.values()];
}
