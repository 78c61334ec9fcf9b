import type { Approval } from '../../../shared/contract/approvals-contract';
import type { PendingToolCall } from '../../../shared/contract/pending-call-contract';
import type { SessionFile, ToolCallBrief } from '../../../shared/contract/sessions-contract';
import { maskSecretValues } from '../../../shared/secrets/mask-secret-values';
import { commandCollisionLine } from '../../../shared/sessions/collision-words';
import { escapeControls } from '../../../shared/text/control-characters';
import { formatClock, plural, relativeTo } from '../../model/format';

/** What a call's badge says: its decision, or `failed` when it ran and failed. */
function outcomeOf(call: ToolCallBrief): string {
  const ran = call.decision === 'allowed' || call.decision === 'asked-allowed';
  return ran && !call.isOk ? 'failed' : call.decision;
}

/**
 * The call the agent's hooks reported that waits for its result: `asking in Claude Code: Bash rm -rf x`
 * while the agent's own permission prompt decides it, else `running in …` (it runs, or waits at a
 * prompt of the agent's own rules). It gives way to the call's result when that comes.
 */
export function SessionPendingCall({ call }: { readonly call: PendingToolCall }) {
  const summary = escapeControls(maskSecretValues(call.summary));
  const title = call.isAsking
    ? `Vigil asks: ${escapeControls(maskSecretValues(call.reason ?? 'a person decides'))}. The answer is given in ${call.agentName}'s own permission prompt.`
    : `Vigil let it go on: it runs now, or waits at ${call.agentName}'s own prompt if its own rules ask first. Its result shows when ${call.agentName} reports it.`;
  return (
    <div
      className="session-pending-call"
      data-testid="session-pending-call"
      data-asking={call.isAsking ? 'true' : 'false'}
      title={`${call.name} ${summary}\n${title}`}
    >
      <span className="session-pending-how">
        {call.isAsking ? 'asking' : 'running'} in {call.agentName}:
      </span>{' '}
      <span className="session-tool">{call.name}</span> <span className="session-summary mono">{summary}</span>
    </div>
  );
}

/** A session's latest calls, newest first: the tool, its arguments on one line (secrets masked, controls escaped), the decision, when. */
export function SessionCalls({
  calls,
  isCallPending = false,
}: {
  readonly calls: readonly ToolCallBrief[];
  /** A call waits for its result (shown above): "No tool call yet" would be wrong. */
  readonly isCallPending?: boolean;
}) {
  if (calls.length === 0) {
    if (isCallPending) return null;
    return (
      <div className="session-calls" data-testid="session-last-call">
        <span className="subtle">No tool call yet</span>
      </div>
    );
  }
  return (
    <ol className="session-calls" data-testid="session-last-call" aria-label="Latest tool calls, newest first">
      {calls.map((call) => {
        const summary = escapeControls(maskSecretValues(call.summary));
        return (
          <li
            key={call.callId}
            className="session-call"
            data-testid="session-call"
            data-decision={call.decision}
            title={`${call.name} ${summary}\n${outcomeOf(call)} at ${formatClock(call.at)}`}
          >
            <span className="session-tool">{call.name}</span>
            <span className="session-summary mono">{summary}</span>
            <span className="badge" data-kind={outcomeOf(call)}>
              {outcomeOf(call)}
            </span>
            {call.collisions?.map((collision) => (
              <span key={collision.path} className="session-call-warning" data-testid="session-call-collision">
                {escapeControls(commandCollisionLine(collision, Date.parse(call.at)))}
              </span>
            ))}
          </li>
        );
      })}
    </ol>
  );
}

/** The counts of one touched file: `+12 −3` where counted, else what happened to it. */
function FileCounts({ file }: { readonly file: SessionFile }) {
  const isCounted = file.added !== undefined || file.removed !== undefined;
  return (
    <span
      className="session-file-counts"
      title={file.isPartlyCounted === true ? 'A command also changed it: its lines were not counted' : undefined}
    >
      {isCounted && (
        <>
          <span className="stat-added">+{file.added ?? 0}</span>{' '}
          <span className="stat-removed">−{file.removed ?? 0}</span>
          {file.isPartlyCounted === true ? '+' : ''}
        </>
      )}
      {file.change !== 'modified' && (
        <span className="badge" data-kind={file.change === 'created' ? 'added' : 'deleted'}>
          {file.change === 'created' ? 'new' : 'deleted'}
        </span>
      )}
      {!isCounted && file.change === 'modified' && <span className="subtle">changed</span>}
    </span>
  );
}

/** The files a session's calls touched, most recent first, named relative to its folder, with their +/− or what happened. */
export function SessionFiles({
  files,
  total,
  root,
  limit,
}: {
  readonly files: readonly SessionFile[];
  readonly total: number;
  readonly root: string | undefined;
  readonly limit: number;
}) {
  if (files.length === 0) return null;
  const shown = files.slice(0, limit);
  return (
    <div className="session-files" data-testid="session-files">
      <ul aria-label="Files its calls touched">
        {shown.map((file) => {
          const name = escapeControls(root === undefined ? file.path : relativeTo(root, file.path));
          return (
            <li key={file.path} className="session-file" data-testid="session-file" data-change={file.change}>
              <span className="mono session-file-path" title={escapeControls(file.path)}>
                {name}
              </span>
              <FileCounts file={file} />
            </li>
          );
        })}
      </ul>
      {total > shown.length && <span className="subtle">and {total - shown.length} more files</span>}
    </div>
  );
}

/** What a session waits for: each approval it asked for, its tool and command, with the way to the approvals screen. */
export function SessionPending({
  approvals,
  onShow,
}: {
  readonly approvals: readonly Approval[];
  readonly onShow: () => void;
}) {
  if (approvals.length === 0) return null;
  return (
    <div className="session-pending-list" data-testid="session-pending-list">
      <button
        type="button"
        className="badge badge-button"
        data-kind="waiting-approval"
        onClick={onShow}
        data-testid="session-pending"
      >
        {plural(approvals.length, 'approval')} pending
      </button>
      <ul>
        {approvals.map((approval) => (
          <li key={approval.id} className="mono" title={escapeControls(maskSecretValues(approval.reason))}>
            {approval.tool}: {escapeControls(maskSecretValues(approval.summary))}
          </li>
        ))}
      </ul>
    </div>
  );
}
