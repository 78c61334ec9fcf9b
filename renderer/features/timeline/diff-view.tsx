import { useMemo, useState } from 'react';
import { countChanges, diffRows, type DiffRow, type UnifiedHunk } from '../../model/diff-rows';
import { escapeControls } from '../../../shared/text/control-characters';

/** Rows drawn at first and added per "Show more": enough to read, few enough to stay instant. */
export const diffPageRows = 1000;

/** What the diff viewer shows for one file. */
export interface FileDiffContent {
  readonly path: string;
  /** added / modified / deleted / … as the engine names it; shown as a badge. */
  readonly status: string;
  readonly isBinary: boolean;
  /** Shown instead of lines for content that has none to show (a symlink, a file too large to diff). */
  readonly note?: string | undefined;
  readonly hunks: readonly UnifiedHunk[];
  /** The engine cut the diff short (a huge file); the rest is not shown. */
  readonly isTruncated: boolean;
  readonly truncatedNote?: string | undefined;
  /** Labels of the two sides ("checkpoint 1a2b3c4d", "live"). */
  readonly fromLabel: string;
  readonly toLabel: string;
}

/** The mark before each kind of row's text, as in a unified diff. */
const rowMarks: Readonly<Record<DiffRow['kind'], string>> = {
  hunk: '',
  context: ' ',
  added: '+',
  removed: '-',
  note: '',
};

function RowLine({ row }: { readonly row: DiffRow }) {
  return (
    <div className={`diff-row diff-${row.kind}`} role="row">
      <span role="cell" className="diff-number">
        {'oldNumber' in row ? row.oldNumber : null}
      </span>
      <span role="cell" className="diff-number">
        {'newNumber' in row ? row.newNumber : null}
      </span>
      <span role="cell" className="diff-text">
        {rowMarks[row.kind]}
        {escapeControls(row.text, { keepLineBreaks: true })}
      </span>
    </div>
  );
}

/**
 * A unified diff of one file: hunks with line numbers on both sides, additions and removals
 * coloured, binary files marked instead of dumped, and long diffs drawn a page at a time.
 */
export function DiffView({ diff }: { readonly diff: FileDiffContent }) {
  const rows = useMemo(() => diffRows(diff.hunks), [diff.hunks]);
  const changes = useMemo(() => countChanges(diff.hunks), [diff.hunks]);
  const [shown, setShown] = useState(diffPageRows);
  const visible = rows.slice(0, shown);
  const remaining = rows.length - visible.length;

  return (
    <section
      className="diff-view"
      data-testid="diff-view"
      data-path={diff.path}
      aria-label={`Changes in ${escapeControls(diff.path)}`}
    >
      <header className="diff-header">
        <span className="diff-path">{escapeControls(diff.path)}</span>
        <span className="badge" data-kind={diff.status}>
          {diff.status}
        </span>
        {!diff.isBinary && (
          <span className="diff-stats">
            <span className="stat-added">+{changes.added}</span>{' '}
            <span className="stat-removed">−{changes.removed}</span>
          </span>
        )}
        <span className="diff-sides">
          {diff.fromLabel} → {diff.toLabel}
        </span>
      </header>
      {diff.isBinary ? (
        <p className="diff-binary" data-testid="diff-binary">
          Binary file: its bytes differ; contents are not shown.
        </p>
      ) : diff.note !== undefined ? (
        <p className="diff-binary">{diff.note}</p>
      ) : rows.length === 0 ? (
        <p className="diff-empty">No line changes (only the mode or the file’s presence differs).</p>
      ) : (
        <div className="diff-body" role="table" aria-label="Unified diff">
          {visible.map((row, index) => (
            <RowLine key={index} row={row} />
          ))}
        </div>
      )}
      {remaining > 0 && (
        <button
          type="button"
          className="button button-quiet diff-more"
          onClick={() => setShown((count) => count + diffPageRows)}
        >
          Show {Math.min(diffPageRows, remaining).toLocaleString('en-US')} more lines (
          {remaining.toLocaleString('en-US')} left)
        </button>
      )}
      {diff.isTruncated && (
        <p className="diff-truncated">
          {diff.truncatedNote ?? 'The diff is too large to show whole; restore or open the file to see the rest.'}
        </p>
      )}
    </section>
  );
}
