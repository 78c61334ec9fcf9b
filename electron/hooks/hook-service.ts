import path from 'node:path';
import { stat } from 'node:fs/promises';
import type { HookAnswer, HookEvent } from '../../shared/hooks/hook-event';
import { AppError } from '../../shared/errors';
import { CheckpointGate } from '../executor';
import { canonicalPath } from '../files';
import { hookClientNames, vigilSessionIdOf, type HookDeps } from './hook-context';
import { HookLifetime } from './hook-lifetime';
import { answerPostTool, flushPendingCalls } from './hook-post-tool';
import { answerPreTool } from './hook-pre-tool';
import { HookStateStore, type HookSessionState } from './hook-state-store';
import { isWholeRefused } from '../workspace';

/** Answers the hook events of Claude Code and Gemini CLI. */
export interface HookService {
  /** One event: the session, its turn, checkpoints and the policy's decision; rejects with an AppError when Vigil cannot act on it. */
  handle(event: HookEvent): Promise<HookAnswer>;
  dispose(): void;
}

const noAnswer: HookAnswer = { notices: [] };

/** The notice of a session working in the home folder or `/` itself, said once, naming which of the two it is. */
export function wholeFolderNotice(cwd: string, home: string): string {
  const which = path.resolve(cwd) === path.resolve(home) ? 'your home folder' : 'the root of the file system';
  return `${cwd} is ${which}, which Vigil never checkpoints whole. Changes are checkpointed at their own project folder (a git repository, or a folder Vigil already checkpoints); changes elsewhere are unsupervised, and the session says so for each.`;
}

/**
 * The hook events as the core handles them. Each event of a session runs under its lock: the
 * session (keyed by the agent's session_id, opened on its first event), its turns (a prompt begins
 * one titled by the prompt, the turn's end ends it), checkpoints and the policy before tool calls,
 * the calls and the files they changed afterwards, the session's end. Events Vigil does not know
 * never reach here (`vigil hook` ignores them).
 */
export function createHookService(deps: HookDeps): HookService {
  const store = new HookStateStore(deps.stateDirectory);
  // The executor's checkpoint stage; its slots last as long as this core (a one-shot core finds the turn's checkpoints in the log).
  const gate = new CheckpointGate({
    checkpoints: deps.engine,
    logger: deps.logger,
    events: deps.events,
    home: deps.facts.home,
    consequence: '',
  });
  const lifetime = new HookLifetime({
    idleMs: deps.idleMs,
    expire: (sessionId, quietMs) => {
      const reason = `no hook event for ${Math.round(quietMs / 60_000)} min: the agent may have exited without ending its session`;
      store
        .withSession(sessionId, () => deps.sessions.disconnect(sessionId, reason))
        .catch((error: unknown) =>
          deps.logger.warn('could not disconnect a quiet hook session', { session: sessionId, error }),
        );
    },
  });

  return {
    handle(event) {
      const sessionId = vigilSessionIdOf(event.agent, event.sessionId);
      return store.withSession(sessionId, async (state) => {
        if (event.kind === 'session-end') {
          gate.forget(sessionId);
          return endSession(deps, lifetime, sessionId, event, state);
        }
        const notices = await ensureSession(deps, sessionId, event, state);
        const release = deps.sessions.startRunning(sessionId);
        try {
          await deps.sessions.activeState(sessionId, { isRevived: false });
          const answer = await dispatch(gate, deps, sessionId, event, state);
          return { ...answer, notices: [...notices, ...answer.notices] };
        } finally {
          release();
          if (deps.isResident)
            lifetime.touch(sessionId, deps.sessions.summary(sessionId).isTurnOpen || state.pending.length > 0);
        }
      });
    },
    dispose() {
      lifetime.dispose();
    },
  };
}

/** Opens (or resumes) the session of an event; says once per session when its folder is never checkpointed whole. */
async function ensureSession(
  deps: HookDeps,
  sessionId: string,
  event: HookEvent,
  state: HookSessionState,
): Promise<string[]> {
  const cwd = await canonicalPath(event.cwd);
  if (
    !(await stat(cwd).then(
      (stats) => stats.isDirectory(),
      () => false,
    ))
  ) {
    throw new AppError(
      'not_found',
      `The agent's cwd ${cwd} is not an existing folder, so Vigil cannot open its session.`,
      { field: 'cwd', path: cwd },
    );
  }
  const request = {
    agent: event.agent,
    client: hookClientNames[event.agent],
    roots: [cwd],
    cwd,
    transcriptPath: event.transcriptPath,
  };
  await deps.sessions.openKeyed(sessionId, request, { isHeld: deps.isResident });
  const notice = isWholeRefused(cwd, deps.facts.home) ? wholeFolderNotice(cwd, deps.facts.home) : undefined;
  if (notice === undefined || state.notices.includes(notice)) return [];
  state.notices.push(notice);
  return [notice];
}

/** The event's own work inside its session, under the session's lock and marked running. */
async function dispatch(
  gate: CheckpointGate,
  deps: HookDeps,
  sessionId: string,
  event: HookEvent,
  state: HookSessionState,
): Promise<HookAnswer> {
  switch (event.kind) {
    case 'session-start':
    case 'session-end':
      return noAnswer;
    case 'prompt':
      await flushPendingCalls(deps, sessionId, event.agent, state);
      await deps.sessions.beginTurn(sessionId, { userMessage: event.prompt ?? '' });
      return noAnswer;
    case 'pre-tool':
      return answerPreTool(gate, deps, sessionId, event, state);
    case 'post-tool':
      return answerPostTool(deps, sessionId, event, state);
    case 'stop':
      await flushPendingCalls(deps, sessionId, event.agent, state);
      await deps.sessions.endTurn(sessionId);
      return noAnswer;
  }
}

/** The session ends: calls still waiting are recorded, then it is closed (an unknown or ended session is left alone). */
async function endSession(
  deps: HookDeps,
  lifetime: HookLifetime,
  sessionId: string,
  event: HookEvent,
  state: HookSessionState,
): Promise<HookAnswer> {
  const history = await deps.sessions.history(sessionId).catch(() => undefined);
  lifetime.forget(sessionId);
  if (history === undefined) return noAnswer;
  if (history.session.status === 'ended') {
    state.pending.length = 0;
    return noAnswer;
  }
  const release = deps.sessions.startRunning(sessionId);
  try {
    await deps.sessions.activeState(sessionId, { isRevived: false });
    await flushPendingCalls(deps, sessionId, event.agent, state);
  } finally {
    release();
  }
  await deps.sessions.close(sessionId);
  return noAnswer;
}
