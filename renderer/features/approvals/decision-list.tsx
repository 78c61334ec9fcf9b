import type { DecidedApproval } from '../../model/approval-list';
import { formatClock } from '../../model/format';
import { escapeControls } from '../../../shared/text/control-characters';

const deciderLabels: Readonly<Record<DecidedApproval['decidedBy'], string>> = {
  human: 'by you',
  timeout: 'nobody decided in time',
  'session-closed': 'the session closed',
  shutdown: 'Vigil stopped',
  unattended: 'nobody could be asked (no Vigil app or vigil serve was running)',
};

/** Recent decisions, newest first: what was allowed or denied, and by whom or what. */
export function DecisionList({ decisions }: { readonly decisions: readonly DecidedApproval[] }) {
  return (
    <ul className="decision-list" data-testid="decisions">
      {decisions.map((decided) => (
        <li
          key={decided.approval.id}
          data-testid="decision"
          data-decision={decided.decision}
          data-approval-id={decided.approval.id}
        >
          <span className="badge" data-kind={decided.decision}>
            {decided.decision}
          </span>
          <span className="mono decision-command" title={escapeControls(decided.approval.summary)}>
            {escapeControls(decided.approval.summary)}
          </span>
          <span className="subtle">
            {escapeControls(decided.approval.agent)} · {deciderLabels[decided.decidedBy]} · {formatClock(decided.at)}
          </span>
        </li>
      ))}
    </ul>
  );
}
