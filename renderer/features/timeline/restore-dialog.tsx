import { DiffView } from '../../components/diff-view';
import { ErrorNotice } from '../../components/error-notice';
import { PlanConfirmation, restoreGroupHints } from '../../components/plan-confirmation';
import { ProgressBar } from '../../components/progress-bar';
import { shortId } from '../../model/format';
import { incompleteSkipReasons } from '../../../shared/contract/checkpoints-restore-schemas';
import { groupPlan, planActionWords, type PlanFile } from '../../model/plan-summary';
import { planFilesOf, unconfirmedSecrets } from '../../model/restore-plan';
import type { RestoreFlow } from '../../stores/restore-slice';
import { useAppStore } from '../../stores/store-context';
import { escapeControls } from '../../../shared/text/control-characters';

const phaseLabels = {
  snapshot: 'Saving the restore point',
  write: 'Writing files',
  verify: 'Verifying',
  done: 'Done',
} as const;

/** An undo's groups say what the restore did and what undoing it does, in the words of its button. */
const undoGroupHints: Readonly<Record<PlanFile['action'], string>> = {
  restore: 'the restore changed it; it goes back to how it was before',
  recreate: 'the restore deleted it; it comes back',
  delete: 'the restore brought it back; it goes away again (the restore point of this undo keeps it)',
  skip: 'not touched',
};

function lineWords(count: number): string {
  return count === 1 ? '1 line' : `${count} lines`;
}

/** The plan of a restore (or of its undo, or of some lines of one file), one click to apply, progress while it runs. */
export function RestoreDialog({ flow }: { readonly flow: RestoreFlow }) {
  const applyRestore = useAppStore((state) => state.applyRestore);
  const cancelRestore = useAppStore((state) => state.cancelRestore);
  const planRestoreOf = useAppStore((state) => state.planRestoreOf);
  const allowRestoreSecrets = useAppStore((state) => state.allowRestoreSecrets);
  const { linePlan, lines } = flow;
  const files: PlanFile[] =
    lines !== undefined
      ? linePlan === undefined || linePlan.putBack + linePlan.takenOut === 0
        ? []
        : [
            {
              path: lines.path,
              action: 'restore',
              reason: `${lineWords(linePlan.putBack)} put back, ${lineWords(linePlan.takenOut)} taken out; the rest of the file stays as it is now`,
              isChangedOutside: linePlan.isChangedOutsideAgents,
            },
          ]
      : flow.plan === undefined
        ? []
        : planFilesOf(flow.plan.entries, flow.paths);
  const secrets = flow.plan === undefined ? [] : unconfirmedSecrets(flow.plan.entries, flow.paths);
  const unrestorable =
    flow.plan === undefined
      ? 0
      : flow.plan.entries.filter(
          (entry) => entry.action === 'skip' && entry.reason !== undefined && incompleteSkipReasons.has(entry.reason),
        ).length;
  const groups = groupPlan(files);
  const count = groups.changeCount;
  const isUndo = flow.undoOf !== undefined;
  const title =
    lines !== undefined
      ? `Restore ${lineWords((linePlan?.putBack ?? 0) + (linePlan?.takenOut ?? 0))} of ${escapeControls(lines.path)} to ${shortId(flow.checkpointId)}`
      : isUndo
        ? 'Undo the restore'
        : flow.paths.length === 0
          ? `Restore every file to ${shortId(flow.checkpointId)}`
          : `Restore ${flow.paths.length === 1 ? escapeControls(flow.paths[0] ?? '') : `${flow.paths.length} selected files`} to ${shortId(flow.checkpointId)}`;
  const confirmLabel =
    lines !== undefined
      ? 'Restore these lines'
      : isUndo
        ? `Undo: ${planActionWords(groups)}`
        : `Restore ${count === 1 ? '1 file' : `${count} files`}`;
  const wholeFile =
    flow.error?.details?.['choice'] === 'restore-whole-file' && lines !== undefined ? lines.path : undefined;
  const progress = flow.progress;
  return (
    <div className="overlay">
      <PlanConfirmation
        title={title}
        files={files}
        confirmLabel={confirmLabel}
        groupHints={isUndo ? undoGroupHints : restoreGroupHints}
        isApplying={flow.phase === 'applying'}
        isPlanning={flow.phase === 'planning'}
        canConfirm={
          flow.phase === 'confirming' &&
          count > 0 &&
          (lines === undefined ? flow.plan !== undefined : linePlan !== undefined)
        }
        problems={
          unrestorable === 0
            ? []
            : [
                `${unrestorable === 1 ? '1 file differs' : `${unrestorable} files differ`} from the checkpoint but cannot be restored (under “Leave alone”, with the reason): this restore will be incomplete.`,
              ]
        }
        nothingMessage={
          flow.phase === 'planning'
            ? 'Working out what would change…'
            : lines !== undefined
              ? 'Those lines already match the checkpoint: there is nothing to restore.'
              : unrestorable > 0
                ? 'Nothing here can be restored: every file that differs is held back (see the reasons above).'
                : 'The files already match: there is nothing to restore.'
        }
        onConfirm={() => void applyRestore()}
        onCancel={cancelRestore}
        testId="restore-plan"
        footnote={
          flow.phase === 'applying' ? (
            <ProgressBar
              label={progress === undefined ? 'Starting' : phaseLabels[progress.phase]}
              done={progress?.done ?? 0}
              total={progress === undefined || progress.phase === 'snapshot' ? undefined : progress.total}
              testId="restore-progress"
            />
          ) : (
            'A restore point is saved first: this restore can be undone.'
          )
        }
      >
        {linePlan !== undefined && linePlan.hunks.length > 0 && (
          <div className="plan-groups plan-preview" data-testid="line-plan-preview">
            <DiffView
              diff={{
                path: linePlan.path,
                status: 'modified',
                isBinary: false,
                hunks: linePlan.hunks,
                isTruncated: false,
                fromLabel: 'now',
                toLabel: 'after the restore',
              }}
            />
          </div>
        )}
        {secrets.length > 0 && (
          <label className="plan-secrets" data-testid="restore-secrets">
            <input
              type="checkbox"
              checked={flow.allowSecrets}
              disabled={flow.phase !== 'confirming'}
              onChange={(event) => allowRestoreSecrets(event.target.checked)}
            />
            Also write {secrets.length === 1 ? 'the secrets file' : `the ${secrets.length} secrets files`}{' '}
            {secrets.join(', ')}: only another program&apos;s store holds {secrets.length === 1 ? 'it' : 'them'}, and
            Vigil&apos;s restore point will not keep {secrets.length === 1 ? 'it' : 'them'}.
          </label>
        )}
        {flow.error !== undefined && (
          <div className="plan-groups">
            <ErrorNotice error={flow.error} />
            {wholeFile !== undefined && (
              <button
                type="button"
                className="button"
                data-testid="restore-whole-file"
                onClick={() => void planRestoreOf(flow.dir, flow.checkpointId, [wholeFile])}
              >
                Restore the whole file instead…
              </button>
            )}
          </div>
        )}
      </PlanConfirmation>
    </div>
  );
}
