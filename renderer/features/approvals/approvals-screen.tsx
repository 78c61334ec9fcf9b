import { useEffect, useState, type KeyboardEvent } from 'react';
import { ApprovalCard } from '../../components/approval-card';
import { DecisionList } from '../../components/decision-list';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { useNow } from '../../components/use-now';
import { oldestApproval } from '../../model/approval-list';
import { sessionColourClass } from '../../model/session-lanes';
import { useAppStore } from '../../stores/store-context';

type Permission = 'granted' | 'denied' | 'default' | 'unsupported';

function notificationPermission(): Permission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** Dangerous calls waiting for a human decision, with the countdown to the fail-closed denial. */
export function ApprovalsScreen() {
  const approvals = useAppStore((state) => state.approvals);
  const load = useAppStore((state) => state.approvalsLoad);
  const deciding = useAppStore((state) => state.deciding);
  const errors = useAppStore((state) => state.approvalErrors);
  const decisions = useAppStore((state) => state.decisions);
  const decideApproval = useAppStore((state) => state.decideApproval);
  const loadApprovals = useAppStore((state) => state.loadApprovals);
  const isConnected = useAppStore((state) => state.connection.kind === 'connected');
  const now = useNow(500);
  const [permission, setPermission] = useState<Permission>(notificationPermission);

  // A and D act on the focused card (ApprovalCard); with none focused, on the oldest one waiting.
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent): void => {
      const key = event.key.toLowerCase();
      if ((key !== 'a' && key !== 'd') || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey)
        return;
      const target = event.target;
      if (
        target instanceof HTMLElement &&
        (target.isContentEditable ||
          ['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON'].includes(target.tagName) ||
          target.closest('[data-testid="approval-card"], [role="dialog"]') !== null)
      )
        return;
      const oldest = oldestApproval(approvals);
      if (oldest === undefined) return;
      event.preventDefault();
      void decideApproval(oldest.id, key === 'a' ? 'allow' : 'deny');
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [approvals, decideApproval]);

  function onListKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp' && event.key !== 'j' && event.key !== 'k') return;
    const cards = [...event.currentTarget.querySelectorAll<HTMLElement>('[data-testid="approval-card"]')];
    const index = cards.findIndex((card) => card === document.activeElement);
    const step = event.key === 'ArrowDown' || event.key === 'j' ? 1 : -1;
    const next = cards[Math.max(0, Math.min(cards.length - 1, index + step))];
    if (next === undefined) return;
    event.preventDefault();
    next.focus();
  }

  return (
    <div className="screen" data-testid="approvals-screen">
      <div className="screen-header">
        <h2>Approvals</h2>
        <span className="muted" data-testid="approvals-count">
          {approvals.length === 0 ? 'nothing waiting' : `${approvals.length} waiting`}
          {!isConnected && ' when the link was lost'}
        </span>
        <span className="spacer" />
        {permission === 'default' && (
          <button
            type="button"
            className="button button-small"
            onClick={() => void Notification.requestPermission().then((answer) => setPermission(answer))}
          >
            Notify me on the desktop
          </button>
        )}
      </div>
      <div className="screen-scroll">
        {load.kind === 'failed' && <ErrorNotice error={load.error} onRetry={() => void loadApprovals()} />}
        {approvals.length === 0 ? (
          <EmptyState title="Nothing waits for approval" testId="approvals-empty">
            <p>
              When an agent asks to run a dangerous command, it waits here for your decision, with the command, where it
              runs and why Vigil asks.
            </p>
            <p>Nobody answering means no: the call is denied when its countdown ends.</p>
          </EmptyState>
        ) : (
          <div
            className="approval-list"
            onKeyDown={onListKeyDown}
            data-testid="approvals-pending"
            data-main-list=""
            tabIndex={-1}
            aria-label="Waiting for approval, oldest first"
          >
            {approvals.map((approval) => (
              <ApprovalCard
                key={approval.id}
                approval={approval}
                laneClass={sessionColourClass(approval.sessionId)}
                now={Math.max(now, Date.parse(approval.requestedAt))}
                deciding={deciding[approval.id]}
                error={errors[approval.id]}
                isConnected={isConnected}
                onDecide={(decision) => void decideApproval(approval.id, decision)}
              />
            ))}
          </div>
        )}
        {decisions.length > 0 && (
          <section className="decisions">
            <h3>Decided since this window opened</h3>
            <DecisionList decisions={decisions} />
          </section>
        )}
      </div>
    </div>
  );
}
