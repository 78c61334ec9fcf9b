import type { TimelineEntry } from './timeline-filter';

/** One row of the timeline list: a day's heading, a turn's heading, or a checkpoint. */
export type TimelineItem =
  | { readonly kind: 'day'; readonly key: string; readonly label: string }
  | { readonly kind: 'turn'; readonly key: string; readonly entry: TimelineEntry; readonly count: number }
  | {
      readonly kind: 'entry';
      readonly key: string;
      readonly entry: TimelineEntry;
      readonly position: number;
      readonly isInTurn: boolean;
    };

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** The local calendar day of a time, as a key (`2026-11-22`). */
export function dayKey(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** A day's heading: `Today · Sun 22 Nov 2026`, `Yesterday · …`, else the date. */
export function dayLabel(iso: string, now: number): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const text = `${weekdays[date.getDay()] ?? ''} ${date.getDate()} ${months[date.getMonth()] ?? ''} ${date.getFullYear()}`;
  const today = new Date(now);
  const yesterday = new Date(now);
  yesterday.setDate(today.getDate() - 1);
  if (dayKey(iso) === dayKey(today.toISOString())) return `Today · ${text}`;
  if (dayKey(iso) === dayKey(yesterday.toISOString())) return `Yesterday · ${text}`;
  return text;
}

/** Whether two entries belong to one turn of one session. */
function isSameTurn(a: TimelineEntry | undefined, b: TimelineEntry | undefined): boolean {
  const first = a?.attribution;
  const second = b?.attribution;
  return (
    first?.sessionId !== undefined &&
    first.turn !== undefined &&
    first.sessionId === second?.sessionId &&
    first.turn === second.turn
  );
}

/**
 * The rows of a timeline, newest first: a heading for each local day, and under it the
 * checkpoints; consecutive checkpoints of one turn of one session go under a heading of that
 * turn (a turn with one checkpoint in view needs none: its row names it). `position` is the
 * entry's index in `entries`.
 */
export function timelineItems(entries: readonly TimelineEntry[], now: number): TimelineItem[] {
  const items: TimelineItem[] = [];
  let day: string | undefined;
  let position = 0;
  while (position < entries.length) {
    const entry = entries[position];
    if (entry === undefined) break;
    const key = dayKey(entry.time);
    if (key !== day) {
      day = key;
      items.push({ kind: 'day', key: `day:${key}`, label: dayLabel(entry.time, now) });
    }
    let count = 1;
    while (isSameTurn(entry, entries[position + count]) && dayKey(entries[position + count]?.time ?? '') === key)
      count += 1;
    if (count > 1) items.push({ kind: 'turn', key: `turn:${entry.id}`, entry, count });
    for (let offset = 0; offset < count; offset += 1) {
      const member = entries[position + offset];
      if (member !== undefined)
        items.push({ kind: 'entry', key: member.id, entry: member, position: position + offset, isInTurn: count > 1 });
    }
    position += count;
  }
  return items;
}
