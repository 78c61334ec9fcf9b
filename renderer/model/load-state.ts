import type { AppErrorData } from '../../shared/errors';

/** Where a load stands: not started, under way, done, or failed with the error to show. */
export type LoadState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'ready' }
  | { readonly kind: 'failed'; readonly error: AppErrorData };

/** Not loaded yet. */
export const idle: LoadState = { kind: 'idle' };
/** Under way. */
export const loading: LoadState = { kind: 'loading' };
/** Done. */
export const ready: LoadState = { kind: 'ready' };

/** Failed, with the error. */
export function failed(error: AppErrorData): LoadState {
  return { kind: 'failed', error };
}
