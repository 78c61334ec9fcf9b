import { structuredPatch, type StructuredPatchHunk } from 'diff';
import { hasBinaryBytes, isValidUtf8 } from '../../files';

/** How a file's two versions compare, for display. */
export interface TextDiff {
  readonly kind: 'text' | 'binary' | 'too-large';
  readonly hunks: readonly StructuredPatchHunk[];
  readonly additions: number;
  readonly deletions: number;
  /** Diff lines left out because of the line cap. */
  readonly omittedLines: number;
}

/** Caps that keep a huge diff from flooding the UI or stalling the core. */
export interface TextDiffLimits {
  /** At most this many hunk lines are returned; the rest is counted in `omittedLines`. */
  readonly maxLines: number;
  /** Either side larger than this is not diffed line by line (`too-large`). */
  readonly maxBytes: number;
  /** Lines of context around each change. */
  readonly context: number;
}

/** The defaults: a few screens of diff, files up to 2 MiB, git's three lines of context. */
export const defaultTextDiffLimits: TextDiffLimits = { maxLines: 2_000, maxBytes: 2 * 1024 * 1024, context: 3 };

/**
 * Bounds on jsdiff's search, after which a file is shown as replaced whole: its cost grows with the
 * size times the number of edits, and a rewritten 30,000-line file would otherwise hold the event
 * loop for minutes.
 */
const maxEditLength = 1_000;
const maxDiffMs = 200;

/**
 * Whether content is binary, the way git judges it (a NUL byte in the first 8,000 bytes), or not
 * valid UTF-8 (which could not be shown as text faithfully).
 */
export function isBinaryContent(bytes: Uint8Array): boolean {
  return hasBinaryBytes(bytes) || !isValidUtf8(bytes);
}

/** The whole-file replacement hunk, for when jsdiff gives up on a pathological pair. */
function replacementHunk(oldText: string, newText: string): StructuredPatchHunk {
  const split = (text: string): string[] => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));
  const oldLines = split(oldText);
  const newLines = split(newText);
  return {
    oldStart: oldLines.length === 0 ? 0 : 1,
    oldLines: oldLines.length,
    newStart: newLines.length === 0 ? 0 : 1,
    newLines: newLines.length,
    lines: [...oldLines.map((line) => `-${line}`), ...newLines.map((line) => `+${line}`)],
  };
}

/** Keeps the first `maxLines` hunk lines (whole hunks, the last one cut), counting the rest. */
function capHunks(
  hunks: readonly StructuredPatchHunk[],
  maxLines: number,
): { hunks: StructuredPatchHunk[]; omittedLines: number } {
  const kept: StructuredPatchHunk[] = [];
  let budget = maxLines;
  let omittedLines = 0;
  for (const hunk of hunks) {
    if (budget <= 0) {
      omittedLines += hunk.lines.length;
      continue;
    }
    if (hunk.lines.length <= budget) {
      kept.push(hunk);
      budget -= hunk.lines.length;
      continue;
    }
    kept.push({ ...hunk, lines: hunk.lines.slice(0, budget) });
    omittedLines += hunk.lines.length - budget;
    budget = 0;
  }
  return { hunks: kept, omittedLines };
}

/**
 * Compares two versions of a file (absent side: empty) as git would show them: binary and
 * oversized content gets no hunks, text gets unified hunks (capped) and line counts that ignore
 * "\ No newline at end of file" markers.
 */
export function diffText(
  oldBytes: Uint8Array | undefined,
  newBytes: Uint8Array | undefined,
  limits: TextDiffLimits = defaultTextDiffLimits,
): TextDiff {
  const none = { hunks: [], additions: 0, deletions: 0, omittedLines: 0 };
  const sides = [oldBytes, newBytes].filter((side): side is Uint8Array => side !== undefined);
  if (sides.some((side) => side.byteLength > limits.maxBytes)) return { kind: 'too-large', ...none };
  if (sides.some(isBinaryContent)) return { kind: 'binary', ...none };
  const oldText = oldBytes === undefined ? '' : Buffer.from(oldBytes).toString('utf8');
  const newText = newBytes === undefined ? '' : Buffer.from(newBytes).toString('utf8');
  const patch = structuredPatch('a', 'b', oldText, newText, undefined, undefined, {
    context: limits.context,
    maxEditLength,
    timeout: maxDiffMs,
  });
  const hunks = patch === undefined ? [replacementHunk(oldText, newText)] : patch.hunks;
  let additions = 0;
  let deletions = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) additions += 1;
      else if (line.startsWith('-')) deletions += 1;
    }
  }
  return { kind: 'text', additions, deletions, ...capHunks(hunks, limits.maxLines) };
}
