import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { groupPlan, planHeadline, type PlanFile } from '../model/plan-summary';
import { escapeControls } from '../../shared/text/control-characters';

const groupTitles: Readonly<Record<PlanFile['action'], string>> = {
  restore: 'Write back',
  recreate: 'Re-create',
  delete: 'Delete',
  skip: 'Leave alone',
};

/** What each group's hint says in a restore (another plan, an undo, says it in its own words). */
export const restoreGroupHints: Readonly<Record<PlanFile['action'], string>> = {
  restore: 'content goes back to the checkpoint',
  recreate: 'deleted since the checkpoint; written again',
  delete: 'created since the checkpoint; the restore point keeps a copy',
  skip: 'not touched',
};

const collapsedCount = 6;

function PlanGroup({
  action,
  files,
  hint,
}: {
  readonly action: PlanFile['action'];
  readonly files: readonly PlanFile[];
  readonly hint: string;
}) {
  const [isOpen, setOpen] = useState(files.length <= collapsedCount + 2);
  if (files.length === 0) return null;
  const shown = isOpen ? files : files.slice(0, collapsedCount);
  return (
    <div className="plan-group" data-action={action} data-testid={`plan-${action}`} data-count={files.length}>
      <div className="plan-group-title">
        <span className="plan-action-mark" aria-hidden="true" />
        {groupTitles[action]} <span className="plan-count">{files.length}</span>
        <span className="plan-group-hint">{hint}</span>
      </div>
      <ul>
        {shown.map((file) => (
          <li key={file.path} data-outside={file.isChangedOutside ? 'true' : undefined}>
            <span className="plan-path">{escapeControls(file.path)}</span>
            {file.reason !== undefined && file.reason !== '' && (
              <span className="plan-reason">{escapeControls(file.reason)}</span>
            )}
            {file.isChangedOutside && action !== 'skip' && (
              <span
                className="plan-outside"
                data-testid="plan-outside"
                title="Edited outside Vigil since the checkpoint (an editor, a shell, another program); the restore point keeps that edit"
              >
                edited outside Vigil
              </span>
            )}
            {!file.isChangedOutside && file.changedBy !== undefined && action !== 'skip' && (
              <span className="plan-by subtle" data-testid="plan-changed-by" title="Who made the version there now">
                by {file.changedBy}
              </span>
            )}
          </li>
        ))}
      </ul>
      {!isOpen && (
        <button type="button" className="link-button" onClick={() => setOpen(true)}>
          and {files.length - collapsedCount} more…
        </button>
      )}
    </div>
  );
}

/** What a plan confirmation shows and does. */
export interface PlanConfirmationProps {
  readonly title: string;
  readonly files: readonly PlanFile[];
  /** Things the plan cannot do, in words (a missing checkpoint, …). */
  readonly problems?: readonly string[];
  readonly confirmLabel: string;
  readonly isApplying: boolean;
  /** The plan is still being worked out (`data-state="planning"`). */
  readonly isPlanning?: boolean;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  readonly footnote?: ReactNode;
  /** Extra content above the file groups (a rewind's turns). */
  readonly children?: ReactNode;
  /** Whether the plan can be applied; by default, when it changes at least one file. */
  readonly canConfirm?: boolean;
  /** What to say when it cannot. */
  readonly nothingMessage?: string;
  readonly testId?: string;
  /** What each group's hint says (an undo says what the restore did and what undoing it does). */
  readonly groupHints?: Readonly<Record<PlanFile['action'], string>>;
}

/**
 * Focus for a plan dialog: the dialog itself when it opens, then the confirm button once it can be
 * pressed (the plan may arrive after the dialog opens), so Enter accepts.
 */
function usePlanFocus(isReady: boolean) {
  const confirmRef = useRef<HTMLButtonElement | null>(null);
  const dialogRef = useRef<HTMLElement | null>(null);
  useEffect(() => {
    dialogRef.current?.focus();
  }, []);
  useEffect(() => {
    if (isReady) confirmRef.current?.focus();
  }, [isReady]);
  return { confirmRef, dialogRef };
}

/** The plan's warnings: files edited outside Vigil, and what the plan cannot do. */
function PlanWarnings({
  outsideCount,
  problems,
}: {
  readonly outsideCount: number;
  readonly problems: readonly string[];
}) {
  return (
    <>
      {outsideCount > 0 && (
        <p className="plan-warning" data-testid="plan-outside-warning">
          {outsideCount === 1 ? '1 file was' : `${outsideCount} files were`} edited outside Vigil since the checkpoint.
          The restore replaces those edits; the restore point taken first keeps them.
        </p>
      )}
      {problems.map((problem) => (
        <p key={problem} className="plan-warning">
          {problem}
        </p>
      ))}
    </>
  );
}

/** The plan's footer: its footnote, Cancel, and the confirm button (which says "Working…" while it applies). */
function PlanFooter({
  footnote,
  confirmLabel,
  isApplying,
  canConfirm,
  confirmRef,
  onConfirm,
  onCancel,
}: Pick<PlanConfirmationProps, 'footnote' | 'confirmLabel' | 'isApplying' | 'onConfirm' | 'onCancel'> & {
  readonly canConfirm: boolean;
  readonly confirmRef: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <footer className="plan-footer">
      <span className="plan-footnote">{footnote}</span>
      <button
        type="button"
        className="button button-quiet"
        data-testid="plan-cancel"
        onClick={onCancel}
        disabled={isApplying}
      >
        Cancel
      </button>
      <button
        ref={confirmRef}
        type="button"
        className="button button-primary"
        data-testid="plan-confirm"
        onClick={onConfirm}
        disabled={isApplying || !canConfirm}
      >
        {isApplying ? 'Working…' : confirmLabel}
      </button>
    </footer>
  );
}

/**
 * The plan of a restore (or of a rewind's code part), shown before anything happens: what will be
 * written back, re-created, deleted and left alone, with reasons, files edited outside flagged.
 * One click (or Enter) accepts; Escape cancels. A plan that changes nothing says so and cannot be
 * "applied", so a restore never silently does nothing.
 */
export function PlanConfirmation({
  title,
  files,
  problems = [],
  confirmLabel,
  isApplying,
  isPlanning = false,
  onConfirm,
  onCancel,
  footnote,
  children,
  canConfirm: canConfirmOverride,
  nothingMessage = 'The files already match the checkpoint: there is nothing to restore.',
  testId = 'plan',
  groupHints = restoreGroupHints,
}: PlanConfirmationProps) {
  const groups = groupPlan(files);
  const canConfirm = canConfirmOverride ?? groups.changeCount > 0;
  const { confirmRef, dialogRef } = usePlanFocus(canConfirm && !isApplying);

  function onKeyDown(event: KeyboardEvent<HTMLElement>): void {
    if (event.key === 'Escape' && !isApplying) {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    }
  }

  return (
    <section
      ref={dialogRef}
      tabIndex={-1}
      className="plan"
      role="dialog"
      aria-label={title}
      data-testid={testId}
      data-state={isApplying ? 'applying' : isPlanning ? 'planning' : 'ready'}
      onKeyDown={onKeyDown}
    >
      <header className="plan-header">
        <h3>{title}</h3>
        <span className="plan-headline" data-testid="plan-headline">
          {planHeadline(groups)}
        </span>
      </header>
      {children}
      <PlanWarnings outsideCount={groups.outsideCount} problems={problems} />
      <div className="plan-groups">
        <PlanGroup action="restore" files={groups.restore} hint={groupHints.restore} />
        <PlanGroup action="recreate" files={groups.recreate} hint={groupHints.recreate} />
        <PlanGroup action="delete" files={groups.delete} hint={groupHints.delete} />
        <PlanGroup action="skip" files={groups.skip} hint={groupHints.skip} />
      </div>
      {!canConfirm && (
        <p className="plan-nothing" data-testid="plan-nothing">
          {nothingMessage}
        </p>
      )}
      <PlanFooter
        footnote={footnote}
        confirmLabel={confirmLabel}
        isApplying={isApplying}
        canConfirm={canConfirm}
        confirmRef={confirmRef}
        onConfirm={onConfirm}
        onCancel={onCancel}
      />
    </section>
  );
}
