import type { AppErrorData } from '../../shared/errors';
import type { CheckpointOnFailure } from '../checkpoints';
import type { ExecutionSession } from '../tools';
import { askPerson, deniedBecause, type ApprovalAnswer, type DecideDependencies } from './decide-call';
import { isRunnable, type PipelineItem } from './pipeline-item';

/** The problem line of a call that went on without its checkpoint because config.json says so. */
export const allowedWithoutCheckpoint =
  'checkpoints.onFailure is "allow" in config.json (or hooks.onFailure, its older name), so the call went on without its checkpoint: its changes there cannot be undone.';

/** The problem line of a call a person let run without its checkpoint. */
export const personAllowedWithoutCheckpoint =
  'A person allowed it to run without its checkpoint: its changes there cannot be undone.';

/** Why a change whose checkpoint failed is held: the question a person sees, with the failures. */
export function withoutCheckpointReason(failures: readonly string[]): string {
  return `Vigil could not checkpoint before this change, so it could not be undone: ${failures.join(' ')}`;
}

/** What to do about a checkpoint that fails, for a person reading a refusal. */
const howToGoOn =
  'To go on, fix what stopped the checkpoint (free disk space, stop the process that holds the checkpoint store’s lock, or repair what the error names) and run it again; or set "checkpoints": { "onFailure": "allow" } in config.json to let such changes run without a checkpoint.';

/** The refusal of a change whose checkpoint failed and that no person let run without one. */
function refusalOf(tool: string, failures: readonly string[], answer: ApprovalAnswer, timeoutMs: number): AppErrorData {
  const why =
    answer.decidedBy === 'unattended'
      ? 'nobody can be asked to let it run without one: no Vigil app or "vigil serve" runs on this data folder'
      : deniedBecause(answer.decidedBy, timeoutMs);
  return {
    code: answer.decidedBy === 'timeout' || answer.decidedBy === 'unattended' ? 'timeout' : 'denied',
    message: `${tool} was not run: Vigil could not checkpoint before it, so its change could not be undone, and ${why}. ${failures.join(' ')} ${howToGoOn}`,
    details: { tool, approval: answer.approval.id, decidedBy: answer.decidedBy, checkpointFailed: true },
  };
}

/**
 * Stage 3b: a call that will run but whose checkpoint failed is held, as an agent's own call is
 * through its hooks (design §4): with `checkpoints.onFailure` "ask" (the default) a person decides,
 * told why, through the same approvals as policy's "ask"; nobody to ask (or no answer) refuses it.
 * Allowed (by a person, or by "allow"), it runs and its problems say it has no checkpoint.
 */
export async function holdWithoutCheckpoint(
  item: PipelineItem,
  session: ExecutionSession,
  dependencies: DecideDependencies,
  onFailure: () => Promise<CheckpointOnFailure>,
): Promise<void> {
  const prepared = item.prepared;
  if (!isRunnable(item) || prepared === undefined || item.problems.length === 0) return;
  const failures = item.problems;
  if ((await onFailure()) === 'allow') {
    item.problems = [...failures, allowedWithoutCheckpoint];
    return;
  }
  const reason = withoutCheckpointReason(failures);
  item.reason = item.reason === undefined ? reason : `${item.reason}; ${reason}`;
  await askPerson(item, prepared, session, reason, dependencies, {
    isWithoutCheckpoint: true,
    refusalOf: (answer, timeoutMs) => refusalOf(item.request.name, failures, answer, timeoutMs),
  });
  if (isRunnable(item)) item.problems = [...failures, personAllowedWithoutCheckpoint];
}
