import type { AppErrorData } from '../../shared/errors';
import { toErrorData } from '../../shared/result';
import type { Logger } from '../logging';
import type { ApprovalService, PolicyEngine } from '../policy';
import type { ExecutionSession, PreparedCall } from '../tools';
import type { CollisionGuard, FoundCollision } from './collision-guard';
import { collisionLine, collisionRefusal, collisionWarning, type CollisionDenial } from './collision-rule';
import type { PipelineItem } from './pipeline-item';

/** What deciding a call takes: the policy, the approvals queue, the collision guard, and where a policy failure is logged. */
export interface DecideDependencies {
  readonly policy: PolicyEngine;
  readonly approvals: ApprovalService;
  readonly logger: Logger;
  /** Holds a change to a file another live session changed recently (absent: no guard). */
  readonly collisions?: CollisionGuard;
}

/** How a wait for a person ended. */
export type ApprovalAnswer = Awaited<ReturnType<ApprovalService['request']>>;

/** Why a call that needed a person was denied, in words, by who (or what) decided. */
export function deniedBecause(decidedBy: ApprovalAnswer['decidedBy'], timeoutMs: number): string {
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

/** How a collision's wait ended, for the agent's refusal. */
function collisionDenialOf(answer: ApprovalAnswer): CollisionDenial {
  if (answer.decidedBy === 'human') return answer.isReread === true ? 'reread' : 'denied';
  if (answer.decidedBy === 'timeout' || answer.decidedBy === 'unattended') return answer.decidedBy;
  return 'closed';
}

/** What a question to a person is about beyond policy's reason: a collision, or a refusal of its own. */
export interface AskOptions {
  /** The call would overwrite another live session's recent change. */
  readonly found?: FoundCollision;
  /** The refusal of a denied call (default: policy's, naming the reason and who denied it). */
  readonly refusalOf?: (answer: ApprovalAnswer, timeoutMs: number) => AppErrorData;
  /** Its checkpoint failed: the card says an approved call runs without one. */
  readonly isWithoutCheckpoint?: boolean;
}

/**
 * Asks a person about a call: one policy wants asked about, one that collides, one whose checkpoint
 * failed (fail closed: no answer is a denial).
 */
export async function askPerson(
  item: PipelineItem,
  prepared: PreparedCall,
  session: ExecutionSession,
  reason: string,
  dependencies: DecideDependencies,
  { found, refusalOf, isWithoutCheckpoint }: AskOptions = {},
): Promise<void> {
  const { config } = await dependencies.policy.settings();
  const collision =
    found === undefined || dependencies.collisions === undefined
      ? undefined
      : await dependencies.collisions.describe(found, await prepared.proposed?.().catch(() => undefined));
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
    ...(collision === undefined ? {} : { collision }),
    ...(isWithoutCheckpoint === true ? { isWithoutCheckpoint } : {}),
  });
  if (answer.via !== undefined) item.decidedVia = answer.via;
  if (answer.decision === 'allowed') {
    item.decision = 'asked-allowed';
    return;
  }
  item.decision = 'denied';
  if (found !== undefined) {
    const refusal = collisionRefusal(
      found.collision,
      found.displayPath,
      item.request.name,
      collisionDenialOf(answer),
      Date.now(),
    );
    item.refusal = {
      ...refusal,
      details: { ...refusal.details, approval: answer.approval.id, decidedBy: answer.decidedBy },
    };
    return;
  }
  if (refusalOf !== undefined) {
    item.refusal = refusalOf(answer, config.approvalTimeoutMs);
    return;
  }
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
  if (verdict.kind !== 'block' && (await guardCollision(item, prepared, session, verdict.reason, dependencies))) return;
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

/**
 * The collision guard on a call policy would let run or ask about: with `sessions.collisions` "ask"
 * a person decides (one question with policy's reason, if it had one); with "warn" it runs, and
 * its reason says what it overwrote. Returns whether it asked.
 */
async function guardCollision(
  item: PipelineItem,
  prepared: PreparedCall,
  session: ExecutionSession,
  policyReason: string | undefined,
  dependencies: DecideDependencies,
): Promise<boolean> {
  const found = await dependencies.collisions?.check(session.id, prepared.written, session.roots);
  if (found === undefined) return false;
  item.overwriting = found;
  const now = Date.now();
  if (found.mode === 'warn') {
    const warning = collisionWarning(found.collision, found.displayPath, now);
    item.reason = policyReason === undefined ? warning : `${policyReason}; ${warning}`;
    dependencies.logger.warn('a call overwrites another session’s recent change', { tool: item.request.name, warning });
    return false;
  }
  const line = collisionLine(found.collision, found.displayPath, now);
  const reason = policyReason === undefined ? line : `${line}; ${policyReason}`;
  item.reason = reason;
  await askPerson(item, prepared, session, reason, dependencies, { found });
  return true;
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
