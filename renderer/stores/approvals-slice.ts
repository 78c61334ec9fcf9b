import type { StateCreator } from 'zustand';
import type { EventPayload } from '../../shared/contract';
import type { Approval, ApprovalAnswer } from '../../shared/contract/approvals-contract';
import type { AppErrorData } from '../../shared/errors';
import type { VigilClient } from '../api/vigil-client';
import { addDecision, removeApproval, upsertApproval, type DecidedApproval } from '../model/approval-list';
import { failed, idle, loading, ready, type LoadState } from '../model/load-state';
import type { AppState } from './app-store';

/** Dangerous calls waiting for a human, the decisions being sent, and the recent decisions. */
export interface ApprovalsSlice {
  readonly approvals: readonly Approval[];
  readonly approvalsLoad: LoadState;
  /** Decisions sent and not yet answered, by approval id. */
  readonly deciding: Readonly<Record<string, ApprovalAnswer>>;
  /** Why a decision failed, by approval id. */
  readonly approvalErrors: Readonly<Record<string, AppErrorData>>;
  readonly decisions: readonly DecidedApproval[];
  readonly loadApprovals: () => Promise<void>;
  readonly decideApproval: (id: string, decision: ApprovalAnswer) => Promise<void>;
  readonly receiveApprovalRequested: (payload: EventPayload<'approvals:requested'>) => void;
  readonly receiveApprovalDecided: (payload: EventPayload<'approvals:decided'>) => void;
}

function without<T>(record: Readonly<Record<string, T>>, key: string): Readonly<Record<string, T>> {
  if (!(key in record)) return record;
  const { [key]: _removed, ...rest } = record;
  return rest;
}

/** The approvals slice, bound to a client. */
export function createApprovalsSlice(client: VigilClient): StateCreator<AppState, [], [], ApprovalsSlice> {
  return (set, get) => ({
    approvals: [],
    approvalsLoad: idle,
    deciding: {},
    approvalErrors: {},
    decisions: [],

    loadApprovals: async () => {
      if (get().approvals.length === 0) set({ approvalsLoad: loading });
      const result = await client.call('approvals:list', {});
      if (!result.ok) {
        set({ approvalsLoad: failed(result.error) });
        return;
      }
      let approvals: readonly Approval[] = [];
      for (const approval of result.value.approvals) approvals = upsertApproval(approvals, approval);
      set({ approvals, approvalsLoad: ready });
    },

    decideApproval: async (id, decision) => {
      // Not connected: no decision is sent (A and D included); the card stays as it is.
      if (get().deciding[id] !== undefined || get().connection.kind !== 'connected') return;
      set((state) => ({
        deciding: { ...state.deciding, [id]: decision },
        approvalErrors: without(state.approvalErrors, id),
      }));
      const result = await client.call('approvals:decide', { id, decision });
      set((state) => ({ deciding: without(state.deciding, id) }));
      if (result.ok) {
        get().receiveApprovalDecided({
          approval: result.value.approval,
          decision: result.value.decision,
          decidedBy: 'human',
          at: new Date().toISOString(),
        });
        return;
      }
      // Already decided (a timeout won the race) or gone: the list is reloaded to show the truth.
      set((state) => ({ approvalErrors: { ...state.approvalErrors, [id]: result.error } }));
      if (result.error.code === 'not_found' || result.error.code === 'conflict') await get().loadApprovals();
    },

    receiveApprovalRequested: ({ approval }) =>
      set((state) => ({ approvals: upsertApproval(state.approvals, approval) })),

    receiveApprovalDecided: (payload) =>
      set((state) => ({
        approvals: removeApproval(state.approvals, payload.approval.id),
        decisions: addDecision(state.decisions, payload),
        deciding: without(state.deciding, payload.approval.id),
      })),
  });
}
