import type { ParsedCallRequest } from '../../../shared/contract';
import type { PartialCallHandlers } from '../../transport';
import type { DiffAgainst } from '../compare';
import type { DiffService } from './diff-service';

/** The calls the diff service answers. */
export type DiffCallName = 'checkpoints:diff' | 'checkpoints:file-diff' | 'checkpoints:file-diffs';

/** The newer side of a diff request in the service's terms. */
function against(request: ParsedCallRequest<DiffCallName>): DiffAgainst {
  return request.against.kind === 'live' ? { kind: 'live' } : { kind: 'checkpoint', ref: request.against.id };
}

/** The handlers of the diff calls. */
export function createDiffHandlers(diff: DiffService): PartialCallHandlers<DiffCallName> {
  return {
    'checkpoints:diff': (request) =>
      diff.diff(request.dir, request.checkpoint, against(request), {
        paths: request.paths,
        offset: request.offset,
        limit: request.limit,
      }),
    'checkpoints:file-diff': (request) =>
      diff.fileDiff(request.dir, request.checkpoint, against(request), request.path, request.maxLines),
    'checkpoints:file-diffs': async (request) => {
      const found = await diff.fileDiffs(
        request.dir,
        request.checkpoint,
        against(request),
        request.paths,
        request.maxLines,
      );
      return { files: [...found.files], unchanged: [...found.unchanged] };
    },
  };
}
