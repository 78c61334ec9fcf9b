import type { ParsedCallRequest } from '../../../shared/contract';
import type { PlainActor } from '../../../shared/contract/actor-model';
import { actorOfCall } from '../../transport/call-actor';
import type { PartialCallHandlers } from '../../transport/call-handlers';
import type { DiffAgainst } from '../compare';
import type { LineRequest } from './line-restore';
import type { RestoreService } from './restore-service';

/** The newer side of a diff request in the service's terms. */
function against(
  request: ParsedCallRequest<'checkpoints:diff' | 'checkpoints:file-diff' | 'checkpoints:file-diffs'>,
): DiffAgainst {
  return request.against.kind === 'live' ? { kind: 'live' } : { kind: 'checkpoint', ref: request.against.id };
}

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
  | 'checkpoints:diff'
  | 'checkpoints:file-diff'
  | 'checkpoints:file-diffs'
  | 'checkpoints:plan-restore'
  | 'checkpoints:restore'
  | 'checkpoints:plan-restore-lines'
  | 'checkpoints:restore-lines';

/** The handlers of the diff and restore calls. */
export function createRestoreHandlers(restore: RestoreService): PartialCallHandlers<RestoreCallName> {
  return {
    'checkpoints:file-diffs': async (request) => {
      const found = await restore.fileDiffs(
        request.dir,
        request.checkpoint,
        against(request),
        request.paths,
        request.maxLines,
      );
      return { files: [...found.files], unchanged: [...found.unchanged] };
    },
    'checkpoints:plan-restore-lines': (request) => restore.planLines(lineRequest(request)),
    'checkpoints:restore-lines': (request, context) =>
      restore.restoreLines(lineRequest(request, actorOfCall(context)), request.fingerprint),
    'checkpoints:diff': (request) =>
      restore.diff(request.dir, request.checkpoint, against(request), {
        paths: request.paths,
        offset: request.offset,
        limit: request.limit,
      }),
    'checkpoints:file-diff': (request) =>
      restore.fileDiff(request.dir, request.checkpoint, against(request), request.path, request.maxLines),
    'checkpoints:plan-restore': (request) => restore.plan(request.dir, request.checkpoint, request.paths),
    'checkpoints:restore': (request, context) =>
      restore.restore(request.dir, request.checkpoint, request.paths, {
        fingerprint: request.fingerprint,
        allowSecrets: request.allowSecrets,
        actor: actorOfCall(context),
      }),
  };
}
