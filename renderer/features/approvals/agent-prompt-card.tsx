import type { PendingToolCall } from '../../../shared/contract/pending-call-contract';
import { maskSecretValues } from '../../../shared/secrets/mask-secret-values';
import { escapeControls } from '../../../shared/text/control-characters';
import { formatClock } from '../../model/format';

/** The asked call a card shows, and whose session it is. */
export interface AgentPromptCardProps {
  readonly call: PendingToolCall;
  readonly sessionId: string;
  /** The session's name as people see it (`claude-code #2`). */
  readonly label: string;
  readonly laneClass: string;
}

/**
 * A call Vigil asked about through an agent's hooks, waiting at that agent's own permission
 * prompt: what would run, why Vigil asks, for which session. Read-only: the answer is given in the
 * agent's prompt, so there is nothing to approve or deny here, and no countdown.
 */
export function AgentPromptCard({ call, sessionId, label, laneClass }: AgentPromptCardProps) {
  const summary = escapeControls(maskSecretValues(call.summary), { keepLineBreaks: true });
  return (
    <article
      className={`approval-card agent-prompt-card ${laneClass}`}
      data-testid="agent-prompt-card"
      data-session-id={sessionId}
      data-call-id={call.callId}
      aria-label={`${call.name} waiting in ${call.agentName}'s own permission prompt: ${escapeControls(maskSecretValues(call.summary))}`}
    >
      <header className="approval-head">
        <span className="lane-dot" aria-hidden="true" />
        <span className="session-agent">{escapeControls(label)}</span>
        <span className="subtle">
          turn {call.turn} · {call.name} · asked {formatClock(call.at)}
        </span>
        <span className="spacer" />
        <span className="badge" data-kind="waiting-approval">
          asking in {call.agentName}
        </span>
      </header>
      <pre className="approval-command" data-testid="approval-command">
        {summary}
      </pre>
      <dl className="approval-facts">
        <div>
          <dt>Why it asks</dt>
          <dd>
            {escapeControls(maskSecretValues(call.reason ?? 'Vigil asks about this call'), { keepLineBreaks: true })}
          </dd>
        </div>
        <div>
          <dt>Session</dt>
          <dd className="mono">{sessionId}</dd>
        </div>
      </dl>
      <p className="agent-prompt-note" data-testid="agent-prompt-note">
        The decision is made in {call.agentName}&apos;s own permission prompt, where Vigil&apos;s reason shows too:
        answer it there. It leaves this list when {call.agentName} reports the call&apos;s result.
      </p>
    </article>
  );
}
