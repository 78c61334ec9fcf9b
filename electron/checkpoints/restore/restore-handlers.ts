import type { ParsedCallRequest } from '../../../shared/contract';
import type { PlainActor } from '../../../shared/contract/actor-model';
import { actorOfCall } from '../../transport';
import type { PartialCallHandlers } from '../../transport';
import type { LineRequest } from './line-restore';
import type { RestoreService } from './restore-service';

/** A line restore request in the service's terms. */
function lineRequest(
  request: ParsedCallRequest<'checkpoints:plan-restore-lines' | 'checkpoints:restore-lines'>,
  actor?: PlainActor,
): LineRequest {
  return {
    dir: request.dir,
    ref: request.checkpoint,
    path: request.path,
    lines: request.lines,
    basis: request.basis,
    actor,
  };
}

/** The calls the restore service answers. */
export type RestoreCallName =
  'checkpoints:plan-restore' | 'checkpoints:restore' | 'checkpoints:plan-restore-lines' | 'checkpoints:restore-lines';

/** The handlers of the restore calls (whole and line restores, and their plans). */
export function createRestoreHandlers(restore: RestoreService): PartialCallHandlers<RestoreCallName> {
  return {
    'checkpoints:plan-restore-lines': (request) => restore.planLines(lineRequest(request)),
    'checkpoints:restore-lines': (request, context) =>
      restore.restoreLines(lineRequest(request, actorOfCall(context)), request.fingerprint),
    'checkpoints:plan-restore': (request) => restore.plan(request.dir, request.checkpoint, request.paths),
    'checkpoints:restore': (request, context) =>
      restore.restore(request.dir, request.checkpoint, request.paths, {
        fingerprint: request.fingerprint,
        allowSecrets: request.allowSecrets,
        actor: actorOfCall(context),
      }),
  };
}
