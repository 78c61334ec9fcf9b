import type { RestoreResult } from '../../model/restore-plan';
import { describeRestore, restoreHeadline, restoreProblems } from '../../model/restore-plan';
import { shortId } from '../../model/format';
import { escapeControls } from '../../../shared/text/control-characters';

/** The outcome of the last restore, kept in view: what changed, what did not and why, and its undo. */
export function RestoreOutcome({
  result,
  wasUndo,
  onUndo,
  onShowRestorePoint,
  onDismiss,
}: {
  readonly result: RestoreResult;
  readonly wasUndo: boolean;
  readonly onUndo: (() => void) | undefined;
  readonly onShowRestorePoint: () => void;
  readonly onDismiss: () => void;
}) {
  const problems = restoreProblems(result);
  const headline =
    result.status === 'complete' && !wasUndo
      ? `Restored to ${shortId(result.plan.checkpoint.id)}`
      : restoreHeadline(result, wasUndo);
  return (
    <div className="restore-outcome" role="status" data-testid="restore-outcome" data-state={result.status}>
      <div className="restore-outcome-line">
        <strong>{headline}.</strong>
        <span>{describeRestore(result)}</span>
      </div>
      <div className="restore-outcome-line subtle">
        Restore point{' '}
        <button type="button" className="link-button mono" onClick={onShowRestorePoint}>
          {shortId(result.preRollback.id)}
        </button>{' '}
        holds the files as they were just before.
      </div>
      {problems.length > 0 && (
        <ul className="restore-problems" data-testid="restore-problems">
          {problems.map((problem) => (
            <li key={problem.path}>
              <span className="mono">{escapeControls(problem.path)}</span> — {escapeControls(problem.why)}
            </li>
          ))}
        </ul>
      )}
      <div className="restore-outcome-actions">
        {onUndo !== undefined && (
          <button type="button" className="button button-small" data-testid="undo-restore" onClick={onUndo}>
            {wasUndo ? 'Redo restore…' : 'Undo restore…'}
          </button>
        )}
        <button type="button" className="button button-quiet button-small" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
