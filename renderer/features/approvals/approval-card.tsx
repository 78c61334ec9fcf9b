import type { KeyboardEvent } from 'react';
import type { Approval, ApprovalAnswer } from '../../../shared/contract/approvals-contract';
import type { AppErrorData } from '../../../shared/errors';
import { maskSecretValues } from '../../../shared/secrets/mask-secret-values';
import { formatClock } from '../../model/format';
import { CollisionDiffs } from './collision-diffs';
import { Countdown } from './countdown';
import { ErrorNotice } from '../../components/error-notice';
import { escapeControls } from '../../../shared/text/control-characters';

/** The approval a card shows, how far its decision got, and where the decision goes. */
export interface ApprovalCardProps {
  readonly approval: Approval;
  readonly laneClass: string;
  readonly now: number;
  readonly deciding: ApprovalAnswer | undefined;
  readonly error: AppErrorData | undefined;
  /** False while the link to Vigil is down: whether the call still waits is not known, so no countdown runs. */
  readonly isConnected?: boolean;
  readonly onDecide: (decision: ApprovalAnswer) => void;
}

/** Who asks, when, and the time left before the automatic denial (not known while disconnected). */
function ApprovalHead({
  approval,
  now,
  isConnected,
}: Pick<ApprovalCardProps, 'approval' | 'now'> & { readonly isConnected: boolean }) {
  return (
    <header className="approval-head">
      <span className="lane-dot" aria-hidden="true" />
      <span className="session-agent">{escapeControls(approval.collision?.label ?? approval.agent)}</span>
      <span className="subtle">
        turn {approval.turn} · {approval.tool} · asked {formatClock(approval.requestedAt)}
      </span>
      <span className="spacer" />
      {isConnected ? (
        <Countdown deadline={approval.expiresAt} now={now} label="Denied in" />
      ) : (
        <span className="countdown subtle" data-state="unknown" data-testid="approval-deadline">
          Not known while disconnected (denied at {formatClock(approval.expiresAt)} unless decided)
        </span>
      )}
    </header>
  );
}

/** Where the call would run, why it asks, and for which session. */
function ApprovalFacts({ approval }: Pick<ApprovalCardProps, 'approval'>) {
  return (
    <dl className="approval-facts">
      {approval.cwd !== undefined && (
        <div>
          <dt>In</dt>
          <dd className="mono">{escapeControls(approval.cwd)}</dd>
        </div>
      )}
      <div>
        <dt>Why it asks</dt>
        <dd>{escapeControls(approval.reason, { keepLineBreaks: true })}</dd>
      </div>
      <div>
        <dt>Session</dt>
        <dd className="mono">{approval.sessionId}</dd>
      </div>
    </dl>
  );
}

/** One answer's button: off while any decision is being sent, saying so on the one being sent. */
function DecideButton({
  answer,
  label,
  busyLabel,
  className,
  testId,
  shortcut,
  deciding,
  onDecide,
}: Pick<ApprovalCardProps, 'deciding' | 'onDecide'> & {
  readonly answer: ApprovalAnswer;
  readonly label: string;
  readonly busyLabel: string;
  readonly className: string;
  readonly testId: string;
  readonly shortcut?: string;
}) {
  return (
    <button
      type="button"
      className={className}
      data-testid={testId}
      disabled={deciding !== undefined}
      onClick={() => onDecide(answer)}
    >
      {deciding === answer ? busyLabel : label}
      {shortcut === undefined ? null : <kbd>{shortcut}</kbd>}
    </button>
  );
}

/** A collision's answers: let it overwrite, deny, or deny and tell the agent to read the file again. */
function CollisionActions(props: Pick<ApprovalCardProps, 'deciding' | 'onDecide'>) {
  return (
    <footer className="approval-actions">
      <DecideButton
        {...props}
        answer="allow"
        label="Let it"
        busyLabel="Letting it…"
        className="button"
        testId="approve"
        shortcut="A"
      />
      <DecideButton
        {...props}
        answer="deny"
        label="Deny"
        busyLabel="Denying…"
        className="button button-danger"
        testId="deny"
        shortcut="D"
      />
      <DecideButton
        {...props}
        answer="deny-reread"
        label="Deny and tell the agent to re-read the file"
        busyLabel="Denying…"
        className="button button-primary"
        testId="deny-reread"
      />
    </footer>
  );
}

/**
 * Approve once or deny; both are off while a decision is being sent. A call whose checkpoint failed
 * says that an approval runs it without one (never the usual promise of a checkpoint).
 */
function ApprovalActions({
  isWithoutCheckpoint,
  ...props
}: Pick<ApprovalCardProps, 'deciding' | 'onDecide'> & { readonly isWithoutCheckpoint: boolean }) {
  return (
    <footer className="approval-actions">
      <DecideButton
        {...props}
        answer="allow"
        label={isWithoutCheckpoint ? 'Approve without a checkpoint' : 'Approve once'}
        busyLabel="Approving…"
        className="button button-primary"
        testId="approve"
        shortcut="A"
      />
      <DecideButton
        {...props}
        answer="deny"
        label="Deny"
        busyLabel="Denying…"
        className="button button-danger"
        testId="deny"
        shortcut="D"
      />
      {isWithoutCheckpoint ? (
        <span className="approval-hint" data-testid="approval-no-checkpoint">
          Vigil could not checkpoint before this call: if you approve it, its change cannot be undone.
        </span>
      ) : (
        <span className="subtle approval-hint">A checkpoint is taken before an approved command runs.</span>
      )}
    </footer>
  );
}

/**
 * A dangerous call waiting for a person: what would run, where, for which session and why it
 * asks; approve once or deny (A / D when focused); a countdown to the automatic denial. A call
 * that would overwrite another session's change shows both changes and a third answer.
 */
export function ApprovalCard({
  approval,
  laneClass,
  now,
  deciding,
  error,
  isConnected = true,
  onDecide,
}: ApprovalCardProps) {
  function onKeyDown(event: KeyboardEvent<HTMLElement>): void {
    if (event.target !== event.currentTarget || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key !== 'a' && key !== 'd') return;
    event.preventDefault();
    if (deciding === undefined) onDecide(key === 'a' ? 'allow' : 'deny');
  }
  return (
    <article
      className={`approval-card ${laneClass}`}
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid="approval-card"
      data-approval-id={approval.id}
      data-state={deciding === undefined ? 'waiting' : `sending-${deciding}`}
      aria-label={`${approval.tool} waiting for approval: ${escapeControls(maskSecretValues(approval.summary))}`}
    >
      <ApprovalHead approval={approval} now={now} isConnected={isConnected} />
      <pre className="approval-command" data-testid="approval-command">
        {escapeControls(maskSecretValues(approval.summary), { keepLineBreaks: true })}
      </pre>
      <ApprovalFacts approval={approval} />
      {approval.collision !== undefined && <CollisionDiffs collision={approval.collision} />}
      {error !== undefined && <ErrorNotice error={error} />}
      {approval.collision === undefined ? (
        <ApprovalActions
          deciding={deciding}
          onDecide={onDecide}
          isWithoutCheckpoint={approval.isWithoutCheckpoint === true}
        />
      ) : (
        <CollisionActions deciding={deciding} onDecide={onDecide} />
      )}
    </article>
  );
}
