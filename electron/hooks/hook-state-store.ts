import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ObservedCall } from '../executor';
import { FileLock } from '../locks';
import { readSmallFile } from '../files';

/** A tool call Vigil answered before it ran, waiting for the agent to report its result (the executor's observed call). */
export type PendingCall = ObservedCall;

/** What the hooks remember of one session between events (each event may be its own process). */
export interface HookSessionState {
  /** Notices already said to the person (each once per session). */
  notices: string[];
  pending: PendingCall[];
}

function parseState(text: string | undefined): HookSessionState {
  if (text === undefined) return { notices: [], pending: [] };
  try {
    const value = JSON.parse(text) as Partial<HookSessionState>;
    return {
      notices: Array.isArray(value.notices) ? value.notices : [],
      pending: Array.isArray(value.pending) ? value.pending : [],
    };
  } catch {
    // A state cut short by a crash: its pending calls are lost (their checkpoints stay on the timeline).
    return { notices: [], pending: [] };
  }
}

/**
 * Replaces a state file whole (a temp file renamed over it) without waiting for the disk: this is on
 * every tool call's path, and a state lost to a power cut costs only the record of calls then in
 * flight (their checkpoints stay), never a user's file.
 */
async function replaceQuickly(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { mode: 0o600 });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * `$VIGIL_HOME/hooks/<session>.json`: pending calls and notices said, per session. Every event of a
 * session runs under the session's lock file, so the agent's concurrent hooks (parallel tool calls)
 * and a one-shot process beside a resident core never interleave.
 */
export class HookStateStore {
  readonly #directory: string;
  readonly #locks = new Map<string, FileLock>();

  constructor(directory: string) {
    this.#directory = directory;
  }

  /** Runs `task` on the session's state under its lock; the state is saved afterwards when the task changed it. */
  async withSession<T>(sessionId: string, task: (state: HookSessionState) => Promise<T>): Promise<T> {
    return this.#lockOf(sessionId).withLock(async () => {
      const file = this.#fileOf(sessionId);
      const before = await readSmallFile(file).catch(() => undefined);
      const state = parseState(before);
      const value = await task(state);
      const after = JSON.stringify(state);
      if (after !== (before ?? JSON.stringify({ notices: [], pending: [] }))) await replaceQuickly(file, after);
      return value;
    }, 'a hook event');
  }

  #fileOf(sessionId: string): string {
    return path.join(this.#directory, `${sessionId}.json`);
  }

  #lockOf(sessionId: string): FileLock {
    let lock = this.#locks.get(sessionId);
    if (lock === undefined) {
      lock = new FileLock({
        path: path.join(this.#directory, `${sessionId}.lock`),
        resource: `the hooks of session ${sessionId}`,
        timeoutMs: 15_000,
      });
      this.#locks.set(sessionId, lock);
    }
    return lock;
  }
}
