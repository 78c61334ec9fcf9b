import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { readSessionLog } from './session-log';
import { applyRecord, initialState, type SessionState } from './session-state';

/** A session rebuilt from its log, and whether the log ends in a torn line. */
export interface LoadedSession {
  readonly state: SessionState;
  readonly isTorn: boolean;
}

/**
 * Rebuilds every session from the logs in a folder with the same reducer as live updates. A log
 * with problems (a torn last line, a corrupt line) still loads, its problems kept as the session's
 * warnings and reported; a log that cannot be used at all is reported and skipped.
 */
export async function loadSessionLogs(directory: string, report: (message: string) => void): Promise<LoadedSession[]> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const names = (await readdir(directory)).filter((name) => name.endsWith('.jsonl'));
  const loaded: LoadedSession[] = [];
  for (const name of names) {
    const session = await loadSessionLog(path.join(directory, name), report);
    if (session !== undefined) loaded.push(session);
  }
  return loaded;
}

/** Rebuilds one session from its log (as `loadSessionLogs` does each); undefined, reported, when it cannot be used. */
export async function loadSessionLog(file: string, report: (message: string) => void): Promise<LoadedSession | undefined> {
  try {
    const contents = await readSessionLog(file);
    const [first, ...rest] = contents.records;
    if (first?.type !== 'opened') {
      report(`The session log ${file} does not start with an "opened" record; it was not loaded.`);
      return undefined;
    }
    const state = initialState(first);
    for (const record of rest) applyRecord(state, record);
    for (const problem of contents.problems) {
      state.warnings.push(problem.message);
      report(`Session ${state.id}: ${problem.message} (${file}).`);
    }
    return { state, isTorn: contents.isTorn };
  } catch (error) {
    report(`The session log ${file} could not be read: ${(error as Error).message}`);
    return undefined;
  }
}
