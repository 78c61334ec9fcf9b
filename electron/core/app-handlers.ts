import type { CallResponse } from '../../shared/contract';
import type { PartialCallHandlers } from '../transport';

/** The handlers of the `app:` calls. */
export function createAppHandlers(info: CallResponse<'app:info'>): PartialCallHandlers<'app:info'> {
  return {
    'app:info': () => Promise.resolve(info),
  };
}
