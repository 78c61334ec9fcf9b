import type { AppStore } from '../stores/app-store';

/** The message of whatever was thrown or rejected, for a person. */
function messageOf(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  if (typeof reason === 'string') return reason;
  try {
    return JSON.stringify(reason);
  } catch {
    return String(reason);
  }
}

/**
 * No error is swallowed in the UI: a promise nobody awaited that rejects, or an error thrown outside
 * React, is shown in a toast with its message (and kept in the console with its stack). Returns the disposer.
 */
export function reportUnhandledErrors(store: AppStore, target: Window = window): () => void {
  const report = (what: string, reason: unknown): void => {
    console.error(what, reason);
    store.getState().notify({ tone: 'error', title: what, detail: messageOf(reason) });
  };
  const onRejection = (event: PromiseRejectionEvent): void => report('Something failed in the app', event.reason);
  const onError = (event: ErrorEvent): void => report('Something failed in the app', event.error ?? event.message);
  target.addEventListener('unhandledrejection', onRejection);
  target.addEventListener('error', onError);
  return () => {
    target.removeEventListener('unhandledrejection', onRejection);
    target.removeEventListener('error', onError);
  };
}
