import type { HookTool } from '../../shared/hooks/hook-event';
import { planFileCall, type CallPlan, type PlanContext } from './observed-plan';

const unique = (items: readonly string[]): string[] => [...new Set(items)];

/**
 * A patch of several files (Codex's apply_patch) gets, for every file it adds, changes, deletes or
 * moves, exactly the checks a file tool gets for its one file (planFileCall: confined to the
 * workspace, protected locations and Vigil's folder refused, the user's rules and the policy as
 * for Vigil's `patch`). One refused file refuses the whole call, naming it; otherwise the strictest
 * decision stands, with every reason, and each file's root is checkpointed before the turn's first
 * change there. The call's targets are exactly its files: what it is recorded as having changed.
 */
export async function planPatchCall(
  tool: Extract<HookTool, { kind: 'patch' }>,
  context: PlanContext,
): Promise<CallPlan> {
  const plans: CallPlan[] = [];
  for (const file of tool.paths) {
    const plan = await planFileCall({ kind: 'file', name: tool.name, path: file, input: tool.input }, context);
    if (plan.decision === 'deny')
      return { ...plan, targets: unique(plans.flatMap((each) => each.targets).concat(plan.targets)) };
    plans.push(plan);
  }
  const reasons = unique(plans.flatMap((plan) => (plan.reason === undefined ? [] : [plan.reason])));
  return {
    decision: plans.some((plan) => plan.decision === 'ask') ? 'ask' : 'allow',
    ...(reasons.length === 0 ? {} : { reason: reasons.join('; ') }),
    directories: unique(plans.flatMap((plan) => plan.directories)),
    targets: unique(plans.flatMap((plan) => plan.targets)),
    isWholeDirectory: false,
    newRoots: unique(plans.flatMap((plan) => plan.newRoots)),
    problems: unique(plans.flatMap((plan) => plan.problems)),
    notCovered: unique(plans.flatMap((plan) => plan.notCovered)),
    isOncePerTurn: true,
  };
}
