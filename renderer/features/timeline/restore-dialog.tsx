import { DiffView } from './diff-view';
import { ErrorNotice } from '../../components/error-notice';
import { PlanConfirmation, restoreGroupHints } from '../../components/plan-confirmation';
import { ProgressBar } from './progress-bar';
import { shortId } from '../../model/format';
import { incompleteSkipReasons } from '../../../shared/contract/checkpoints-restore-schemas';
import { groupPlan, planActionWords, type PlanFile } from '../../model/plan-summary';
import { planFilesOf, unconfirmedSecrets } from '../../model/restore-plan';
import type { LinePlan } from '../../../shared/contract/checkpoints-history-contract';
import type { AppErrorData } from '../../../shared/errors';
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

/** The files the plan confirmation lists: the plan's, or for some lines, the one file with what happens to its lines. */
function planFilesOfFlow({ lines, linePlan, plan, paths }: RestoreFlow): PlanFile[] {
  if (lines !== undefined)
    return linePlan === undefined || linePlan.putBack + linePlan.takenOut === 0
      ? []
      : [
          {
            path: lines.path,
            action: 'restore',
            reason: `${lineWords(linePlan.putBack)} put back, ${lineWords(linePlan.takenOut)} taken out; the rest of the file stays as it is now`,
            isChangedOutside: linePlan.isChangedOutsideAgents,
          },
        ];
  return plan === undefined ? [] : planFilesOf(plan.entries, paths);
}

/** How many files differ from the checkpoint but cannot be restored (the restore will be incomplete). */
function unrestorableCount({ plan }: RestoreFlow): number {
  return plan === undefined
    ? 0
    : plan.entries.filter(
        (entry) => entry.action === 'skip' && entry.reason !== undefined && incompleteSkipReasons.has(entry.reason),
      ).length;
}

/** The dialog's title: which lines, the undo, every file, or which files go back to which checkpoint. */
function restoreTitle({ lines, linePlan, undoOf, paths, checkpointId }: RestoreFlow): string {
  return lines !== undefined
    ? `Restore ${lineWords((linePlan?.putBack ?? 0) + (linePlan?.takenOut ?? 0))} of ${escapeControls(lines.path)} to ${shortId(checkpointId)}`
    : undoOf !== undefined
      ? 'Undo the restore'
      : paths.length === 0
        ? `Restore every file to ${shortId(checkpointId)}`
        : `Restore ${paths.length === 1 ? escapeControls(paths[0] ?? '') : `${paths.length} selected files`} to ${shortId(checkpointId)}`;
}

/** What the confirm button says: restore the lines, undo (in the words of what it does), or restore N files. */
function confirmLabelOf({ lines, undoOf }: RestoreFlow, groups: ReturnType<typeof groupPlan>): string {
  const count = groups.changeCount;
  return lines !== undefined
    ? 'Restore these lines'
    : undoOf !== undefined
      ? `Undo: ${planActionWords(groups)}`
      : `Restore ${count === 1 ? '1 file' : `${count} files`}`;
}

/** What the dialog says when there is nothing to confirm: still planning, or why nothing would change. */
function nothingMessageOf({ phase, lines }: RestoreFlow, unrestorable: number): string {
  return phase === 'planning'
    ? 'Working out what would change…'
    : lines !== undefined
      ? 'Those lines already match the checkpoint: there is nothing to restore.'
      : unrestorable > 0
        ? 'Nothing here can be restored: every file that differs is held back (see the reasons above).'
        : 'The files already match: there is nothing to restore.';
}

/** The footnote: progress while the restore runs, before that the promise of a restore point. */
function RestoreFootnote({ flow }: { readonly flow: RestoreFlow }) {
  const progress = flow.progress;
  return flow.phase === 'applying' ? (
    <ProgressBar
      label={progress === undefined ? 'Starting' : phaseLabels[progress.phase]}
      done={progress?.done ?? 0}
      total={progress === undefined || progress.phase === 'snapshot' ? undefined : progress.total}
      testId="restore-progress"
    />
  ) : (
    'A restore point is saved first: this restore can be undone.'
  );
}

/** For some lines: the file as it is now against the file after the restore. */
function LinePlanPreview({ linePlan }: { readonly linePlan: LinePlan }) {
  return (
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
  );
}

/** The consent to write secrets files back, which Vigil's restore point will not keep. */
function SecretsConsent({ flow, secrets }: { readonly flow: RestoreFlow; readonly secrets: readonly string[] }) {
  const allowRestoreSecrets = useAppStore((state) => state.allowRestoreSecrets);
  return (
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
  );
}

/** Why the restore failed; when some lines cannot be restored alone, the offer to restore the whole file. */
function RestoreError({ flow, error }: { readonly flow: RestoreFlow; readonly error: AppErrorData }) {
  const planRestoreOf = useAppStore((state) => state.planRestoreOf);
  const wholeFile =
    error.details?.['choice'] === 'restore-whole-file' && flow.lines !== undefined ? flow.lines.path : undefined;
  return (
    <div className="plan-groups">
      <ErrorNotice error={error} />
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
  );
}

/** The plan of a restore (or of its undo, or of some lines of one file), one click to apply, progress while it runs. */
export function RestoreDialog({ flow }: { readonly flow: RestoreFlow }) {
  const applyRestore = useAppStore((state) => state.applyRestore);
  const cancelRestore = useAppStore((state) => state.cancelRestore);
  const { linePlan, lines } = flow;
  const files = planFilesOfFlow(flow);
  const secrets = flow.plan === undefined ? [] : unconfirmedSecrets(flow.plan.entries, flow.paths);
  const unrestorable = unrestorableCount(flow);
  const groups = groupPlan(files);
  return (
    <div className="overlay">
      <PlanConfirmation
        title={restoreTitle(flow)}
        files={files}
        confirmLabel={confirmLabelOf(flow, groups)}
        groupHints={flow.undoOf !== undefined ? undoGroupHints : restoreGroupHints}
        isApplying={flow.phase === 'applying'}
        isPlanning={flow.phase === 'planning'}
        canConfirm={
          flow.phase === 'confirming' &&
          groups.changeCount > 0 &&
          (lines === undefined ? flow.plan !== undefined : linePlan !== undefined)
        }
        problems={
          unrestorable === 0
            ? []
            : [
                `${unrestorable === 1 ? '1 file differs' : `${unrestorable} files differ`} from the checkpoint but cannot be restored (under “Leave alone”, with the reason): this restore will be incomplete.`,
              ]
        }
        nothingMessage={nothingMessageOf(flow, unrestorable)}
        onConfirm={() => void applyRestore()}
        onCancel={cancelRestore}
        testId="restore-plan"
        footnote={<RestoreFootnote flow={flow} />}
      >
        {linePlan !== undefined && linePlan.hunks.length > 0 && <LinePlanPreview linePlan={linePlan} />}
        {secrets.length > 0 && <SecretsConsent flow={flow} secrets={secrets} />}
        {flow.error !== undefined && <RestoreError flow={flow} error={flow.error} />}
      </PlanConfirmation>
    </div>
  );
}
