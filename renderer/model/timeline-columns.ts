import { actorKey, actorOfCheckpoint } from '../../shared/contract/actor-model';
import type { TimelineEntry } from './timeline-filter';

/** The most lane columns the timeline draws; more actors share the last one. */
export const maxTimelineColumns = 6;

/**
 * The lane columns of a directory's timeline, by actor key (a session id, `@app`, `@cli`,
 * `@vigil`, `@outside`): the actors that are not sessions first (the person, the CLI, Vigil,
 * outside), then one column per session in order of first appearance, capped.
 */
export function timelineColumns(entries: readonly TimelineEntry[]): ReadonlyMap<string, number> {
  const plain: string[] = [];
  const sessions: string[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const actor = actorOfCheckpoint(entry);
    const key = actorKey(actor);
    if (seen.has(key)) continue;
    seen.add(key);
    (actor.kind === 'session' ? sessions : plain).push(key);
  }
  const columns = new Map<string, number>();
  [...plain, ...sessions].forEach((key, index) => columns.set(key, Math.min(maxTimelineColumns - 1, index)));
  return columns;
}
