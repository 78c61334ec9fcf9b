import type { EntryDiff } from '../../../shared/contract/memory-contract';
import { escapeControls } from '../../../shared/text/control-characters';

/** The entry-level difference of a memory change: entries added, entries removed, how many kept. */
export function EntryDiffView({ diff }: { readonly diff: EntryDiff }) {
  return (
    <div className="entry-diff" data-testid="entry-diff">
      {diff.added.map((entry, index) => (
        <div key={`a${index}`} className="entry-diff-line" data-kind="added">
          <span className="entry-diff-mark" aria-label="added">
            +
          </span>
          <span className="entry-text">{escapeControls(entry, { keepLineBreaks: true })}</span>
        </div>
      ))}
      {diff.removed.map((entry, index) => (
        <div key={`r${index}`} className="entry-diff-line" data-kind="removed">
          <span className="entry-diff-mark" aria-label="removed">
            −
          </span>
          <span className="entry-text">{escapeControls(entry, { keepLineBreaks: true })}</span>
        </div>
      ))}
      {(diff.kept > 0 || diff.isReordered) && (
        <div className="entry-diff-kept">
          {diff.kept === 1 ? '1 entry unchanged' : `${diff.kept} entries unchanged`}
          {diff.isReordered ? ', reordered' : ''}
        </div>
      )}
      {diff.added.length === 0 && diff.removed.length === 0 && !diff.isReordered && (
        <div className="entry-diff-kept">No entry changed (only whitespace or the file’s bytes).</div>
      )}
    </div>
  );
}
