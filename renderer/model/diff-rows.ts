/** A unified-diff hunk as jsdiff's `structuredPatch` gives it: lines prefixed with "+", "-", " " or "\\". */
export interface UnifiedHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

/** One row of a diff as the viewer draws it, with the line numbers on each side. */
export type DiffRow =
  | { readonly kind: 'hunk'; readonly text: string }
  | { readonly kind: 'context'; readonly oldNumber: number; readonly newNumber: number; readonly text: string }
  | { readonly kind: 'added'; readonly newNumber: number; readonly text: string }
  | { readonly kind: 'removed'; readonly oldNumber: number; readonly text: string }
  | { readonly kind: 'note'; readonly text: string };

/** Turns hunks into numbered rows: a header per hunk, then its lines with old/new line numbers. */
export function diffRows(hunks: readonly UnifiedHunk[]): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const hunk of hunks) {
    rows.push({ kind: 'hunk', text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` });
    let oldNumber = hunk.oldStart;
    let newNumber = hunk.newStart;
    for (const line of hunk.lines) {
      const text = line.slice(1);
      switch (line[0]) {
        case '+':
          rows.push({ kind: 'added', newNumber, text });
          newNumber += 1;
          break;
        case '-':
          rows.push({ kind: 'removed', oldNumber, text });
          oldNumber += 1;
          break;
        case '\\':
          rows.push({ kind: 'note', text: text.trim() });
          break;
        default:
          rows.push({ kind: 'context', oldNumber, newNumber, text });
          oldNumber += 1;
          newNumber += 1;
      }
    }
  }
  return rows;
}

/** Counts of added and removed lines in hunks. */
export function countChanges(hunks: readonly UnifiedHunk[]): { readonly added: number; readonly removed: number } {
  let added = 0;
  let removed = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
    }
  }
  return { added, removed };
}
