import type { AppErrorData } from '../../shared/errors';
import { fail, type Result } from '../../shared/result';
import type { CallCollision } from '../../shared/contract/call-collision-contract';
import type { CallEffect } from '../../shared/contract/sessions-contract';
import type { PreparedCall } from '../tools';
import type { TouchedDirectory } from './checkpoint-gate';
import type { FoundCollision } from './collision-guard';
import type { CallCheckpoint, ToolCallOutcome, ToolCallRequest, ToolDecision } from './executor-types';

/** One call on its way through the pipeline: each stage fills in what it learned. */
export interface PipelineItem {
  readonly request: ToolCallRequest;
  readonly callId: string;
  readonly seq: number;
  prepared?: PreparedCall;
  decision?: ToolDecision;
  reason?: string;
  /** Which UI a person decided it from (the session log records it). */
  decidedVia?: 'window' | 'page';
  refusal?: AppErrorData;
  checkpoints: readonly CallCheckpoint[];
  touched: readonly TouchedDirectory[];
  problems: readonly string[];
  result?: Result<unknown>;
  durationMs: number;
  /** The files it changed, as far as Vigil could see (its session log and summary show them). */
  effects?: readonly CallEffect[];
  effectsOmitted?: number;
  /** Files a terminal command overwrote that another live session had just changed. */
  collisions?: readonly CallCollision[];
  /** A file tool's collision that was let run (a person allowed it, or "warn"): recorded once it ran. */
  overwriting?: FoundCollision;
}

/** A call as it enters the pipeline: nothing decided, nothing run. */
export function newPipelineItem(request: ToolCallRequest, callId: string, seq: number): PipelineItem {
  return { request, callId, seq, checkpoints: [], touched: [], problems: [], durationMs: 0 };
}

/** Whether the call was allowed (by policy or by a person) and so runs. */
export function isRunnable(item: PipelineItem): boolean {
  return item.decision === 'allowed' || item.decision === 'asked-allowed';
}

/** The call's result; a call that somehow produced none reports it as unexpected. */
export function itemResult(item: PipelineItem): Result<unknown> {
  return item.result ?? fail({ code: 'unexpected', message: 'The call produced no result.' });
}

/** What the caller is told about the call. */
export function callOutcome(item: PipelineItem, turn: number): ToolCallOutcome {
  return {
    callId: item.callId,
    name: item.request.name,
    turn,
    decision: item.decision ?? 'invalid',
    reason: item.reason,
    result: itemResult(item),
    checkpoints: item.checkpoints,
    checkpointProblems: item.problems,
    ...(item.collisions === undefined || item.collisions.length === 0 ? {} : { collisions: item.collisions }),
  };
}
