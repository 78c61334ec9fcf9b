/** How long ago, for people: `12 s ago`, `3 min ago`, `2 h ago`. */
export function agoText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min ago` : `${Math.round(minutes / 60)} h ago`;
}

/** A terminal command's collision, as its row says it: "overwrote src/app.ts, changed by claude-code #1 40 s ago" (`ranAt`: when the command ran). */
export function commandCollisionLine(
  collision: { readonly displayPath: string; readonly otherLabel: string; readonly changedAt: string },
  ranAt: number,
): string {
  return `overwrote ${collision.displayPath}, changed by ${collision.otherLabel} ${agoText(ranAt - Date.parse(collision.changedAt))}`;
}

/** What a session whose change was overwritten reads: "codex #2 overwrote your change to src/app.ts at 10:42:13 (terminal)" (`clock`: when, as the reader shows times). */
export function overwriteNoticeLine(
  notice: { readonly displayPath: string; readonly byLabel: string; readonly byTool: string },
  clock: string,
): string {
  return `${notice.byLabel} overwrote your change to ${notice.displayPath} at ${clock} (${notice.byTool})`;
}
