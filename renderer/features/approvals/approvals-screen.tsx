import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { sessionLabel } from '../../../shared/sessions/session-identity';
import { AgentPromptCard } from './agent-prompt-card';
import { ApprovalCard } from './approval-card';
import { DecisionList } from './decision-list';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { useNow } from '../../components/use-now';
import { agentPromptCalls, agentPromptCount } from '../../model/agent-prompt-calls';
import { oldestApproval } from '../../model/approval-list';
import { sessionColourClass } from '../../model/session-lanes';
import { selectSessionIdentities } from '../../stores/select-session-identities';
import { useAppStore } from '../../stores/store-context';

type Permission = 'granted' | 'denied' | 'default' | 'unsupported';

function notificationPermission(): Permission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

function isTypingOrOnCard(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable ||
      ['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON'].includes(target.tagName) ||
      target.closest('[data-testid="approval-card"], [role="dialog"]') !== null)
  );
}

/** A and D act on the focused card (ApprovalCard); with none focused, on the oldest one waiting. */
function useOldestApprovalKeys(): void {
  const approvals = useAppStore((state) => state.approvals);
  const decideApproval = useAppStore((state) => state.decideApproval);
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent): void => {
      const key = event.key.toLowerCase();
      if ((key !== 'a' && key !== 'd') || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey)
        return;
      if (isTypingOrOnCard(event.target)) return;
      const oldest = oldestApproval(approvals);
      if (oldest === undefined) return;
      event.preventDefault();
      void decideApproval(oldest.id, key === 'a' ? 'allow' : 'deny');
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [approvals, decideApproval]);
}

/** Arrow keys and j/k move the focus from card to card. */
function moveCardFocus(event: KeyboardEvent<HTMLDivElement>): void {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp' && event.key !== 'j' && event.key !== 'k') return;
  const cards = [
    ...event.currentTarget.querySelectorAll<HTMLElement>(
      '[data-testid="approval-card"], [data-testid="agent-prompt-card"]',
    ),
  ];
  const index = cards.findIndex((card) => card === document.activeElement);
  const step = event.key === 'ArrowDown' || event.key === 'j' ? 1 : -1;
  const next = cards[Math.max(0, Math.min(cards.length - 1, index + step))];
  if (next === undefined) return;
  event.preventDefault();
  next.focus();
}

/** The screen's title, how many calls wait, and the offer of desktop notifications while the browser has not been asked. */
function ApprovalsHeader({ count, isConnected }: { readonly count: number; readonly isConnected: boolean }) {
  const [permission, setPermission] = useState<Permission>(notificationPermission);
  return (
    <div className="screen-header">
      <h2>Approvals</h2>
      <span className="muted" data-testid="approvals-count">
        {count === 0 ? 'nothing waiting' : `${count} waiting`}
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
  );
}

/** The waiting calls, oldest first, one card each, with its countdown. */
function PendingApprovals({ isConnected }: { readonly isConnected: boolean }) {
  const approvals = useAppStore((state) => state.approvals);
  const deciding = useAppStore((state) => state.deciding);
  const errors = useAppStore((state) => state.approvalErrors);
  const decideApproval = useAppStore((state) => state.decideApproval);
  const identities = useAppStore(selectSessionIdentities);
  const now = useNow(500);
  return (
    <div
      className="approval-list"
      onKeyDown={moveCardFocus}
      data-testid="approvals-pending"
      data-main-list=""
      tabIndex={-1}
      aria-label="Waiting for approval, oldest first"
    >
      {approvals.map((approval) => (
        <ApprovalCard
          key={approval.id}
          approval={approval}
          laneClass={sessionColourClass(approval.sessionId, identities)}
          now={Math.max(now, Date.parse(approval.requestedAt))}
          deciding={deciding[approval.id]}
          error={errors[approval.id]}
          isConnected={isConnected}
          onDecide={(decision) => void decideApproval(approval.id, decision)}
        />
      ))}
      <AgentPromptCards />
    </div>
  );
}

/** Calls Vigil asked about through an agent's hooks, waiting at that agent's own prompt: shown, never decided here. */
function AgentPromptCards() {
  const sessions = useAppStore((state) => state.sessions);
  const identities = useAppStore(selectSessionIdentities);
  const asking = useMemo(() => agentPromptCalls(sessions), [sessions]);
  const agents = useMemo(() => new Map(sessions.map((session) => [session.id, session.agent])), [sessions]);
  return asking.map(({ sessionId, call }) => (
    <AgentPromptCard
      key={`${sessionId}:${call.callId}`}
      call={call}
      sessionId={sessionId}
      label={sessionLabel(agents.get(sessionId) ?? call.agentName, identities.get(sessionId))}
      laneClass={sessionColourClass(sessionId, identities)}
    />
  ));
}

/** Dangerous calls waiting for a human decision, with the countdown to the fail-closed denial; and, read-only, calls waiting at an agent's own permission prompt. */
export function ApprovalsScreen() {
  const count = useAppStore((state) => state.approvals.length + agentPromptCount(state.sessions));
  const load = useAppStore((state) => state.approvalsLoad);
  const decisions = useAppStore((state) => state.decisions);
  const loadApprovals = useAppStore((state) => state.loadApprovals);
  const isConnected = useAppStore((state) => state.connection.kind === 'connected');
  useOldestApprovalKeys();

  return (
    <div className="screen" data-testid="approvals-screen">
      <ApprovalsHeader count={count} isConnected={isConnected} />
      <div className="screen-scroll">
        {load.kind === 'failed' && <ErrorNotice error={load.error} onRetry={() => void loadApprovals()} />}
        {count === 0 ? (
          <EmptyState title="Nothing waits for approval" testId="approvals-empty">
            <p>
              When an agent using Vigil&apos;s tools (MCP, or Vigil&apos;s own protocol) asks to run a dangerous
              command, it waits here for your decision, with the command, where it runs and why Vigil asks. Nobody
              answering means no: the call is denied when its countdown ends.
            </p>
            <p>
              Agents supervised through their hooks (Claude Code, Gemini CLI) ask in their own permission prompt
              instead, with Vigil&apos;s reason: the call shows here while it waits, read-only, and the answer given in
              the agent&apos;s prompt decides.
            </p>
          </EmptyState>
        ) : (
          <PendingApprovals isConnected={isConnected} />
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
