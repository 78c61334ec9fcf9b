import { escapeControls } from '../../../shared/text/control-characters';
import type { LineSelection } from '../../model/line-selection';

/** The bar under a pick: how many lines of which file, Clear, and "Restore these lines…". */
function LineSelectionBar({
  picked,
  path,
  isDragging,
  onClear,
  onRestoreLines,
  source,
}: {
  readonly picked: number;
  readonly path: string;
  readonly isDragging: boolean;
  readonly onClear: () => void;
  readonly onRestoreLines: () => void;
  /** The checkpoint the lines come from (its short id), when the diff is not against the live file. */
  readonly source?: string | undefined;
}) {
  return (
    <div className="stacked-lines-bar" data-testid="line-selection-bar">
      <span>
        {picked === 1 ? '1 changed line' : `${picked} changed lines`} picked in{' '}
        <span className="mono">{escapeControls(path)}</span>
      </span>
      <span className="spacer" />
      <button type="button" className="button button-quiet button-small" onClick={onClear}>
        Clear
      </button>
      <button
        type="button"
        className="button button-primary button-small"
        data-testid="restore-lines"
        disabled={isDragging}
        onClick={onRestoreLines}
        title={
          source === undefined
            ? 'Only these lines go back to the checkpoint; the rest of the file stays as it is now. Shows the plan first.'
            : `Checkpoint ${source}'s version of these lines goes into the live file, as "vigil checkpoints restore … --lines" does; the rest of the file stays as it is now. Shows the plan first.`
        }
      >
        {source === undefined ? 'Restore these lines…' : `Restore from ${source}…`}
      </button>
    </div>
  );
}

/** Under the stacked diff: the bar of a pick, the keyboard's help (for assistive technology) and where the keyboard's cursor is. */
export function LinePickFooter({
  lineSelection,
  isDragging,
  onClear,
  onRestoreLines,
  source,
  helpId,
  announcement,
}: {
  readonly lineSelection: LineSelection | undefined;
  readonly isDragging: boolean;
  readonly onClear: () => void;
  readonly onRestoreLines: () => void;
  readonly source: string | undefined;
  /** The id the diff region is described by; absent when lines cannot be picked. */
  readonly helpId: string | undefined;
  readonly announcement: string;
}) {
  const picked = lineSelection?.keys.size ?? 0;
  return (
    <>
      {lineSelection !== undefined && picked > 0 && (
        <LineSelectionBar
          picked={picked}
          path={lineSelection.path}
          isDragging={isDragging}
          onClear={onClear}
          onRestoreLines={onRestoreLines}
          source={source}
        />
      )}
      {helpId !== undefined && (
        <p className="sr-only" id={helpId}>
          Up and down arrows move through the lines, Alt with them through the changes; Shift extends the pick, Space
          picks a change, Enter restores the picked lines after showing the plan, Escape clears the pick.
        </p>
      )}
      <p className="sr-only" aria-live="polite" data-testid="diff-cursor">
        {escapeControls(announcement)}
      </p>
    </>
  );
}
