import type { CallCollision } from '../../shared/contract/call-collision-contract';
import type { CallCheckpoint } from '../../shared/contract/sessions-contract';
import { isPathInside } from '../lib';
import type { Logger } from '../logging';
import type { CallLog } from '../sessions';
import type { FoundCollision } from './collision-guard';

/**
 * The collision with the call's checkpoint that holds the other session's version (taken before
 * the call ran, of the innermost folder holding the file), when the call took one.
 */
export function withHeldVersion(collision: CallCollision, checkpoints: readonly CallCheckpoint[]): CallCollision {
  const held = checkpoints
    .filter((taken) => taken.checkpointId !== undefined && isPathInside(collision.path, taken.directory))
    .sort((left, right) => right.directory.length - left.directory.length)[0];
  return held?.checkpointId === undefined
    ? collision
    : { ...collision, checkpoint: { directory: held.directory, checkpointId: held.checkpointId } };
}

/** A file tool's collision that was let run (a person allowed it, or `sessions.collisions` is "warn"), as its result records it. */
export function fileToolCollision(found: FoundCollision, checkpoints: readonly CallCheckpoint[]): CallCollision {
  const { collision } = found;
  return withHeldVersion(
    {
      path: collision.path,
      displayPath: found.displayPath,
      otherSessionId: collision.otherSessionId,
      otherLabel: collision.otherLabel,
      changedAt: new Date(collision.changedAt).toISOString(),
    },
    checkpoints,
  );
}

/** The call that overwrote: its session, that session's name for people, its tool, when it finished. */
export interface OverwritingCall {
  readonly sessionId: string;
  readonly label: string;
  readonly tool: string;
  readonly at: string;
}

/**
 * Tells each session whose change a call overwrote (an `overwritten` record in its log, so its
 * card and transcript say so). `turns`: the other session's turn that changed each file, when
 * known. A session that cannot be told is logged; the call's own result stands.
 */
export async function tellOverwritten(
  sessions: Pick<CallLog, 'record'>,
  logger: Logger,
  call: OverwritingCall,
  collisions: readonly CallCollision[],
  turns: ReadonlyMap<string, number | undefined> = new Map(),
): Promise<void> {
  await Promise.all(
    collisions.map(async (collision) => {
      const turn = turns.get(collision.path);
      const notice = {
        path: collision.path,
        displayPath: collision.displayPath,
        bySessionId: call.sessionId,
        byLabel: call.label,
        byTool: call.tool,
        at: call.at,
        changedAt: collision.changedAt,
        ...(collision.checkpoint === undefined ? {} : { checkpoint: collision.checkpoint }),
      };
      await sessions
        .record(collision.otherSessionId, [
          { type: 'overwritten', at: call.at, ...(turn === undefined ? {} : { turn }), notice },
        ])
        .catch((error: unknown) =>
          logger.warn('could not tell a session that another overwrote its change', {
            session: collision.otherSessionId,
            file: collision.path,
            error,
          }),
        );
    }),
  );
}
