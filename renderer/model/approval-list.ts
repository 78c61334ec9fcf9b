import type { Approval, ApprovalDecider, ApprovalDecision } from '../../shared/contract/approvals-contract';

/** An approval that was decided, as the recent-decisions list shows it. */
export interface DecidedApproval {
  readonly approval: Approval;
  readonly decision: ApprovalDecision;
  readonly decidedBy: ApprovalDecider;
  readonly at: string;
}

/** How many recent decisions the approvals screen keeps. */
export const recentDecisionLimit = 20;

/** Pending approvals with one added (or replaced), oldest first: the one closest to timing out leads. */
export function upsertApproval(approvals: readonly Approval[], approval: Approval): readonly Approval[] {
  const others = approvals.filter((existing) => existing.id !== approval.id);
  return [...others, approval].sort((a, b) => (a.expiresAt < b.expiresAt ? -1 : a.expiresAt > b.expiresAt ? 1 : 0));
}

/** Pending approvals without one. */
export function removeApproval(approvals: readonly Approval[], id: string): readonly Approval[] {
  return approvals.some((approval) => approval.id === id)
    ? approvals.filter((approval) => approval.id !== id)
    : approvals;
}

/** Recent decisions with one more in front, capped. */
export function addDecision(
  decisions: readonly DecidedApproval[],
  decided: DecidedApproval,
): readonly DecidedApproval[] {
  return [decided, ...decisions.filter((existing) => existing.approval.id !== decided.approval.id)].slice(
    0,
    recentDecisionLimit,
  );
}

/** Pending approvals per session id, oldest first. */
export function pendingBySession(approvals: readonly Approval[]): ReadonlyMap<string, readonly Approval[]> {
  const found = new Map<string, Approval[]>();
  for (const approval of approvals) found.set(approval.sessionId, [...(found.get(approval.sessionId) ?? []), approval]);
  for (const list of found.values())
    list.sort((a, b) => (a.requestedAt < b.requestedAt ? -1 : a.requestedAt > b.requestedAt ? 1 : 0));
  return found;
}

/** The approval waiting longest (the earliest request): what A and D decide when no card has the focus. */
export function oldestApproval(approvals: readonly Approval[]): Approval | undefined {
  let oldest: Approval | undefined;
  for (const approval of approvals)
    if (oldest === undefined || approval.requestedAt < oldest.requestedAt) oldest = approval;
  return oldest;
}
