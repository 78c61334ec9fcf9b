import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { sessionIdSchema } from '../../shared/contract/sessions-contract';
import { condenseRecord, isSecretCallRecord } from './logged-record';
import { readSessionLog } from './session-log';
import { applyRecord, initialState, type SessionState } from './session-state';

/** A session rebuilt from its log, and whether the log ends in a torn line. */
export interface LoadedSession {
  readonly state: SessionState;
  readonly isTorn: boolean;
}

/** A session log on disk, before it is read. */
export interface SessionLogFile {
  readonly id: string;
  readonly file: string;
  /** When it was last appended to: the session's last change. */
  readonly modifiedAt: number;
}

/** The session logs of a folder, most recently changed first (only their names and times are read). */
export async function listSessionLogs(directory: string): Promise<SessionLogFile[]> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const names = (await readdir(directory)).filter(
    (name) => name.endsWith('.jsonl') && sessionIdSchema.safeParse(name.slice(0, -6)).success,
  );
  const found = await Promise.all(
    names.map(async (name) => {
      const file = path.join(directory, name);
      const stats = await stat(file).catch(() => undefined);
      return stats?.isFile() === true ? { id: name.slice(0, -6), file, modifiedAt: stats.mtimeMs } : undefined;
    }),
  );
  return found
    .filter((item) => item !== undefined)
    .sort((a, b) => b.modifiedAt - a.modifiedAt || a.id.localeCompare(b.id));
}

/**
 * Rebuilds one session from its log with the same reducer as live updates, record by record as
 * the file streams in, each condensed first (a log written before condensing keeps its verbatim
 * contents on disk, never in memory). Problems (a torn last line, a corrupt line) become the
 * session's warnings and are reported; a log that cannot be used at all is reported and gives
 * undefined.
 */
export async function loadSessionLog(
  file: string,
  report: (message: string) => void,
): Promise<LoadedSession | undefined> {
  let state: SessionState | undefined;
  let isUnusable = false;
  const secretCalls = new Set<number>();
  try {
    const contents = await readSessionLog(file, (raw) => {
      if (isUnusable) return;
      if (state === undefined) {
        if (raw.type !== 'opened') {
          isUnusable = true;
          return;
        }
        state = initialState(raw);
        return;
      }
      if (raw.type === 'call' && isSecretCallRecord(raw)) secretCalls.add(raw.seq);
      applyRecord(
        state,
        condenseRecord(raw, (seq) => secretCalls.has(seq)),
      );
    });
    if (state === undefined) {
      report(`The session log ${file} does not start with an "opened" record; it was not loaded.`);
      return undefined;
    }
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
