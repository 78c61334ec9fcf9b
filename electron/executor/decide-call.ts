import { toErrorData } from '../../shared/result';
import type { Logger } from '../logging/logger';
import type { ApprovalService } from '../policy/approval-service';
import type { PolicyEngine } from '../policy/policy-engine';
import type { ExecutionSession, PreparedCall } from '../tools';
import type { PipelineItem } from './pipeline-item';

/** What deciding a call takes: the policy, the approvals queue, and where a policy failure is logged. */
export interface DecideDependencies {
  readonly policy: PolicyEngine;
  readonly approvals: ApprovalService;
  readonly logger: Logger;
}

type ApprovalAnswer = Awaited<ReturnType<ApprovalService['request']>>;

/** Why a call that needed a person was denied, in words, by who (or what) decided. */
function deniedBecause(decidedBy: ApprovalAnswer['decidedBy'], timeoutMs: number): string {
  const why: Record<ApprovalAnswer['decidedBy'], string> = {
    human: 'a person denied it',
    timeout: `nobody answered within ${Math.round(timeoutMs / 1000)} s, so it was denied`,
    'session-closed': 'its session closed before anyone answered',
    shutdown: 'Vigil shut down before anyone answered',
    unattended:
      'nobody can approve it: no Vigil app or "vigil serve" runs on this data folder to ask a person, so it was denied; start one (vigil serve) and run it again, or allow it with a rule in config.json',
  };
  return why[decidedBy];
}

/** Asks a person about a call policy wants asked about (fail closed: no answer is a denial). */
async function askPerson(
  item: PipelineItem,
  prepared: PreparedCall,
  session: ExecutionSession,
  reason: string,
  dependencies: DecideDependencies,
): Promise<void> {
  const { config } = await dependencies.policy.settings();
  const answer = await dependencies.approvals.request({
    sessionId: session.id,
    agent: session.agent,
    turn: session.turn,
    callId: item.callId,
    tool: item.request.name,
    summary: prepared.summary,
    reason,
    cwd: prepared.cwd,
    timeoutMs: config.approvalTimeoutMs,
  });
  if (answer.via !== undefined) item.decidedVia = answer.via;
  if (answer.decision === 'allowed') {
    item.decision = 'asked-allowed';
    return;
  }
  item.decision = 'denied';
  item.refusal = {
    code: answer.decidedBy === 'timeout' || answer.decidedBy === 'unattended' ? 'timeout' : 'denied',
    message: `${item.request.name} was not run: it needed a human decision (${reason}) and ${deniedBecause(answer.decidedBy, config.approvalTimeoutMs)}.`,
    details: { tool: item.request.name, approval: answer.approval.id, decidedBy: answer.decidedBy },
  };
}

/** Policy's verdict on a prepared call: allowed, blocked, or asked of a person. */
async function decideWith(
  item: PipelineItem,
  prepared: PreparedCall,
  session: ExecutionSession,
  dependencies: DecideDependencies,
): Promise<void> {
  const verdict = await dependencies.policy.decide(prepared.subject);
  if (verdict.reason !== undefined) item.reason = verdict.reason;
  if (verdict.kind === 'allow') {
    item.decision = 'allowed';
    return;
  }
  if (verdict.kind === 'block') {
    item.decision = 'blocked';
    item.refusal = {
      code: 'denied',
      message: `${item.request.name} was not run: ${verdict.reason}`,
      details: { tool: item.request.name },
    };
    return;
  }
  await askPerson(item, prepared, session, verdict.reason, dependencies);
}

/** Stage 2: a decision for a prepared call. A policy that fails refuses the call (fail closed). */
export async function decideCall(
  item: PipelineItem,
  session: ExecutionSession,
  dependencies: DecideDependencies,
): Promise<void> {
  const prepared = item.prepared;
  if (prepared === undefined) return;
  try {
    await decideWith(item, prepared, session, dependencies);
  } catch (error) {
    dependencies.logger.error('The policy failed on a tool call; it is refused', { tool: item.request.name, error });
    item.decision = 'blocked';
    item.refusal = toErrorData(error);
  }
}
