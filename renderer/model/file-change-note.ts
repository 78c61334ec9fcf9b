import { escapeControls } from '../../shared/text/control-characters';

/** What a changed file is, as far as a note about it goes. */
export interface ChangedFileFacts {
  readonly status: string;
  readonly kind: string;
  readonly oldMode?: string | undefined;
  readonly newMode?: string | undefined;
  readonly additions: number;
  readonly deletions: number;
  readonly linkTargets?: { readonly old?: string | undefined; readonly new?: string | undefined } | undefined;
}

const symlinkMode = '120000';

/** A git mode as people read it: `100755` → `755`. */
export function shortMode(mode: string): string {
  return mode.length > 3 ? mode.slice(-3) : mode;
}

/** "mode 644 → 755" when only the permission bits of a regular file changed, else undefined. */
export function modeChange(file: ChangedFileFacts): string | undefined {
  const { oldMode, newMode } = file;
  if (
    oldMode === undefined ||
    newMode === undefined ||
    oldMode === newMode ||
    oldMode === symlinkMode ||
    newMode === symlinkMode
  )
    return undefined;
  return `mode ${shortMode(oldMode)} → ${shortMode(newMode)}`;
}

/** Where a symlink points, escaped for display. */
function target(text: string | undefined): string {
  return text === undefined ? '?' : escapeControls(text);
}

/**
 * What changed about a file that has no lines to show, in words: a symlink's target ("link →
 * src/b.ts", "link: a.ts → b.ts"), a file that became a link or the reverse, a mode ("mode 644 →
 * 755"). Undefined when the lines say it all.
 */
export function fileChangeNote(file: ChangedFileFacts): string | undefined {
  const wasLink = file.oldMode === symlinkMode;
  const isLink = file.newMode === symlinkMode;
  const links = file.linkTargets;
  if (file.status === 'type-changed')
    return isLink ? `file → link to ${target(links?.new)}` : `link to ${target(links?.old)} → file`;
  if (wasLink && isLink) return `link: ${target(links?.old)} → ${target(links?.new)}`;
  if (isLink && file.status === 'added') return `link → ${target(links?.new)}`;
  if (wasLink && file.status === 'deleted') return `link → ${target(links?.old)} (deleted)`;
  const mode = modeChange(file);
  if (mode === undefined) return undefined;
  return file.additions + file.deletions === 0 ? mode : `${mode}, and its content`;
}
