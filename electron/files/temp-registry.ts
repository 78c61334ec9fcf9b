import type { Disposer } from '../lib';

/** The temp files this thread is writing right now, so that a sweep never deletes a write in flight. */
const inFlight = new Set<string>();

/** Records a temp file as in flight; the returned function forgets it. */
export function trackTempFile(tempPath: string): Disposer<void> {
  inFlight.add(tempPath);
  return () => {
    inFlight.delete(tempPath);
  };
}

/** Whether this thread is writing this temp file right now. */
export function isTempFileInFlight(tempPath: string): boolean {
  return inFlight.has(tempPath);
}
