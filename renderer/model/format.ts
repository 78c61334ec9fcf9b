/** Small formatters shared by the screens: times, counts, ids, paths. */

/** The first 8 characters of a commit or object id, as git shows it. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** "1 file", "3 files". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** A time relative to now: "just now", "42 s ago", "5 min ago", "3 h ago", else the date. */
export function formatRelativeTime(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const seconds = Math.round((now - at) / 1000);
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return formatDate(iso);
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** Local date and time to the second: "2026-11-22 14:03:09". */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** Local time of day to the second: "14:03:09". */
export function formatClock(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** A countdown: "1:05", "0:09", "0:00" when past; hours when long ("2:03:04"). */
export function formatCountdown(remainingMs: number): string {
  const total = Math.max(0, Math.ceil(remainingMs / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}

/** A path shown relative to a root when it is inside it, else as it is. */
export function relativeTo(root: string, target: string): string {
  if (target === root) return '.';
  for (const separator of ['/', '\\']) {
    const prefix = root.endsWith(separator) ? root : `${root}${separator}`;
    if (target.startsWith(prefix)) return target.slice(prefix.length);
  }
  return target;
}

/** The last segment of a path ("/a/b/project" → "project"). */
export function baseName(target: string): string {
  const trimmed = target.replace(/[\\/]+$/, '');
  const index = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return index === -1 ? trimmed : trimmed.slice(index + 1);
}

/** A text's length in code points, as the memory limits count characters. */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _codePoint of text) count += 1;
  return count;
}
