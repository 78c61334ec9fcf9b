import type { PartialCallHandlers } from '../transport/call-handlers';
import type { ApprovalService } from './approval-service';

/** The handlers of the `approvals:` calls (the UI's approval prompts). */
export function createApprovalHandlers(approvals: ApprovalService): PartialCallHandlers<'approvals:list' | 'approvals:decide'> {
  return {
    'approvals:list': () => Promise.resolve({ approvals: [...approvals.list()] }),
    'approvals:decide': (request) => {
      const { approval, decision } = approvals.decide(request.id, request.decision);
      return Promise.resolve({ approval, decision });
    },
  };
}
