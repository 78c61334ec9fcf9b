import type { ParsedCallRequest } from '../../shared/contract';
import { actorOfCall } from '../transport/call-actor';
import type { PartialCallHandlers } from '../transport/call-handlers';
import type { DiffAgainst } from './diff-sides';
import type { RestoreService } from './restore-service';

/** The newer side of a diff request in the service's terms. */
function against(request: ParsedCallRequest<'checkpoints:diff' | 'checkpoints:file-diff'>): DiffAgainst {
  return request.against.kind === 'live' ? { kind: 'live' } : { kind: 'checkpoint', ref: request.against.id };
}

/** The handlers of the diff and restore calls. */
export function createRestoreHandlers(
  restore: RestoreService,
): PartialCallHandlers<'checkpoints:diff' | 'checkpoints:file-diff' | 'checkpoints:plan-restore' | 'checkpoints:restore'> {
  return {
    'checkpoints:diff': (request) => restore.diff(request.dir, request.checkpoint, against(request), { paths: request.paths, offset: request.offset, limit: request.limit }),
    'checkpoints:file-diff': (request) => restore.fileDiff(request.dir, request.checkpoint, against(request), request.path, request.maxLines),
    'checkpoints:plan-restore': (request) => restore.plan(request.dir, request.checkpoint, request.paths),
    'checkpoints:restore': (request, context) =>
      restore.restore(request.dir, request.checkpoint, request.paths, { fingerprint: request.fingerprint, allowSecrets: request.allowSecrets, actor: actorOfCall(context) }),
  };
}
