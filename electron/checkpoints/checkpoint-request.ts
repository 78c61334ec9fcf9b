import { AppError } from '../../shared/errors';
import type { CheckpointRequest } from './checkpoint-types';
import { isObjectId } from '../git-store';

/** Validates what a caller asks `checkpoint()` for (the service's edge). */
export function checkCheckpointRequest(request: CheckpointRequest): void {
  if (typeof request.reason !== 'string' || request.reason.trim() === '') {
    throw new AppError('invalid_request', 'A checkpoint needs a reason (such as "before write_file").', {
      field: 'reason',
    });
  }
  if (request.kind === 'pre-rollback' && (request.restores === undefined || !isObjectId(request.restores))) {
    throw new AppError(
      'invalid_request',
      'A pre-rollback snapshot needs the full id of the checkpoint being restored.',
      { field: 'restores' },
    );
  }
  if (request.restores !== undefined && !isObjectId(request.restores)) {
    throw new AppError('invalid_request', `"${request.restores}" is not a full checkpoint id (40 hex characters).`, {
      field: 'restores',
    });
  }
}
