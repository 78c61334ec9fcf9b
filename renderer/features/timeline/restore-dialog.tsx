import { ErrorNotice } from '../../components/error-notice';
import { PlanConfirmation } from '../../components/plan-confirmation';
import { ProgressBar } from '../../components/progress-bar';
import { shortId } from '../../model/format';
import { incompleteSkipReasons } from '../../../shared/contract/checkpoints-restore-schemas';
import { planFilesOf, unconfirmedSecrets } from '../../model/restore-plan';
import type { RestoreFlow } from '../../stores/checkpoint-slice';
import { useAppStore } from '../../stores/store-context';

const phaseLabels = { snapshot: 'Saving the restore point', write: 'Writing files', verify: 'Verifying', done: 'Done' } as const;

/** The plan of a restore (or of its undo), one click to apply, progress while it runs. */
export function RestoreDialog({ flow }: { readonly flow: RestoreFlow }) {
  const applyRestore = useAppStore((state) => state.applyRestore);
  const cancelRestore = useAppStore((state) => state.cancelRestore);
  const allowRestoreSecrets = useAppStore((state) => state.allowRestoreSecrets);
  const files = flow.plan === undefined ? [] : planFilesOf(flow.plan.entries, flow.paths);
  const secrets = flow.plan === undefined ? [] : unconfirmedSecrets(flow.plan.entries, flow.paths);
  const unrestorable = flow.plan === undefined ? 0 : flow.plan.entries.filter((entry) => entry.action === 'skip' && entry.reason !== undefined && incompleteSkipReasons.has(entry.reason)).length;
  const count = files.filter((file) => file.action !== 'skip').length;
  const title =
    flow.undoOf !== undefined
      ? 'Undo the restore'
      : flow.paths.length === 0
        ? `Restore every file to ${shortId(flow.checkpointId)}`
        : `Restore ${flow.paths.length === 1 ? '1 selected file' : `${flow.paths.length} selected files`} to ${shortId(flow.checkpointId)}`;
  const progress = flow.progress;
  return (
    <div className="overlay">
      <PlanConfirmation
        title={title}
        files={files}
        confirmLabel={flow.undoOf !== undefined ? `Undo: put back ${count === 1 ? '1 file' : `${count} files`}` : `Restore ${count === 1 ? '1 file' : `${count} files`}`}
        isApplying={flow.phase === 'applying'}
        canConfirm={flow.phase === 'confirming' && flow.plan !== undefined && count > 0}
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
        {secrets.length > 0 && (
          <label className="plan-secrets" data-testid="restore-secrets">
            <input type="checkbox" checked={flow.allowSecrets} disabled={flow.phase !== 'confirming'} onChange={(event) => allowRestoreSecrets(event.target.checked)} />
            Also write {secrets.length === 1 ? 'the secrets file' : `the ${secrets.length} secrets files`} {secrets.join(', ')}: only another program&apos;s store holds{' '}
            {secrets.length === 1 ? 'it' : 'them'}, and Vigil&apos;s restore point will not keep {secrets.length === 1 ? 'it' : 'them'}.
          </label>
        )}
        {flow.error !== undefined && (
          <div className="plan-groups">
            <ErrorNotice error={flow.error} />
          </div>
        )}
      </PlanConfirmation>
    </div>
  );
}
