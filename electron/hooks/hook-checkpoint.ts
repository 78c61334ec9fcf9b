import path from 'node:path';
import type { CallCheckpoint } from '../../shared/contract/sessions-contract';
import { isAppError } from '../../shared/errors';
import type { CheckpointApi } from '../checkpoints';
import type { EventHub } from '../lib/event-hub';
import type { TouchedDirectory } from '../executor/checkpoint-gate';
import type { Logger } from '../logging/logger';
import type { SessionState } from '../sessions/session-state';
import { isPathInside } from '../lib/path-rules';
import type { PendingCall } from './hook-state-store';

/** Who a hook checkpoint is for: the trailers of its commit. */
export interface HookCheckpointCall {
  readonly sessionId: string;
  readonly agent: string;
  readonly turn: number;
  /** The agent's own tool name (`Write`, `run_shell_command`). */
  readonly tool: string;
  readonly reason: string;
  /** The files it is about to change (re-checked on disk by the snapshot). */
  readonly paths: readonly string[];
}

/** What taking one directory's checkpoint came to. */
export type HookCheckpointOutcome =
  { readonly ok: true; readonly checkpoint: CallCheckpoint } | { readonly ok: false; readonly problem: string };

/** What a hook checkpoint needs of the core. */
export interface HookCheckpointDeps {
  readonly engine: Pick<CheckpointApi, 'checkpoint'>;
  readonly logger: Logger;
  readonly events: Pick<EventHub, 'emit'>;
}

/** The paths of a call inside a directory, relative and `/`-separated; undefined when it may change anything there. */
export function pathsIn(
  directory: string,
  paths: readonly string[] | undefined,
): { readonly paths?: readonly string[] } {
  if (paths === undefined) return {};
  const inside = paths
    .filter((candidate) => isPathInside(candidate, directory))
    .map((candidate) => path.relative(directory, candidate).split(path.sep).join('/'));
  return inside.length === 0 || inside.includes('') ? {} : { paths: [...new Set(inside)] };
}

/** The checkpoint of a directory before a change; a failure is reported (log, UI) and returned, never thrown. */
export async function takeHookCheckpoint(
  deps: HookCheckpointDeps,
  directory: string,
  call: HookCheckpointCall,
): Promise<HookCheckpointOutcome> {
  try {
    const outcome = await deps.engine.checkpoint(directory, {
      reason: call.reason,
      attribution: { sessionId: call.sessionId, turn: call.turn, tool: call.tool, agent: call.agent },
      paths: call.paths.filter((candidate) => isPathInside(candidate, directory)),
    });
    const checkpoint: CallCheckpoint =
      outcome.kind === 'created'
        ? { directory, checkpointId: outcome.checkpoint.id, kind: 'created' }
        : { directory, ...(outcome.head === undefined ? {} : { checkpointId: outcome.head }), kind: 'unchanged' };
    return { ok: true, checkpoint };
  } catch (error) {
    const why = isAppError(error) ? error.message : 'an unexpected error (the details are in the log)';
    const problem = `The checkpoint of ${directory} before ${call.tool} failed: ${why}`;
    deps.logger.error('a hook checkpoint failed', {
      directory,
      session: call.sessionId,
      turn: call.turn,
      tool: call.tool,
      error,
    });
    deps.events.emit('app:problem-reported', { source: 'checkpoints', message: problem, at: new Date().toISOString() });
    return { ok: false, problem };
  }
}

/**
 * The checkpoint a turn already holds for a directory (file tools checkpoint before the turn's
 * first change only): from a call of the turn on record, or one still waiting for its result.
 */
export function turnCheckpointOf(
  state: SessionState,
  pending: readonly PendingCall[],
  turn: number,
  directory: string,
): string | undefined {
  const held = (touched: readonly TouchedDirectory[]): string | undefined =>
    touched.find((item) => item.directory === directory && item.checkpointId !== undefined)?.checkpointId;
  for (const call of state.calls.values()) {
    if (call.record.turn !== turn) continue;
    const found = held(call.record.touched);
    if (found !== undefined) return found;
  }
  for (const call of pending) {
    if (call.turn !== turn) continue;
    const found = held(call.touched);
    if (found !== undefined) return found;
  }
  return undefined;
}
