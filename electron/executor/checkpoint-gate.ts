import os from 'node:os';
import path from 'node:path';
import type { CallCheckpoint } from '../../shared/contract/sessions-contract';
import { isAppError } from '../../shared/errors';
import type { CheckpointApi } from '../checkpoints';
import type { EventHub } from '../lib/event-hub';
import type { Logger } from '../logging/logger';
import { isPathInside } from '../lib/path-rules';

/** A directory a call may change, and the checkpoint that protects it (none when it failed or is refused). */
export interface TouchedDirectory {
  readonly directory: string;
  readonly checkpointId?: string;
  /** The paths in it the call may change (relative, `/`-separated); absent: anything in it. */
  readonly paths?: readonly string[];
}

/** What the gate did for one allowed call. */
export interface GateResult {
  /** Checkpoints this call took (or found unchanged); empty when an earlier call of the turn already did. */
  readonly checkpoints: readonly CallCheckpoint[];
  readonly touched: readonly TouchedDirectory[];
  /** Checkpoints that failed; the call runs anyway. */
  readonly problems: readonly string[];
}

/** Who asks for a checkpoint. */
export interface GateCall {
  readonly sessionId: string;
  readonly agent: string;
  readonly turn: number;
  readonly tool: string;
  readonly reason: string;
  /** The workspace roots the call may change. */
  readonly directories: readonly string[];
  /** The files it is about to change (re-checked on disk by the snapshot). */
  readonly paths: readonly string[];
  /** It may change anything in the directories. */
  readonly isWholeDirectory?: boolean;
}

/** The paths of `call` inside `directory`, relative; undefined when it may change anything there. */
function scopeIn(call: GateCall, directory: string): { readonly paths?: readonly string[] } {
  if (call.isWholeDirectory === true) return {};
  const inside = call.paths
    .filter((candidate) => isPathInside(candidate, directory))
    .map((candidate) => path.relative(directory, candidate).split(path.sep).join('/'));
  return inside.includes('') || inside.length === 0 ? {} : { paths: [...new Set(inside)] };
}

type Slot = CallCheckpointOutcome;

/** Who a checkpoint before a call is for (the trailers of its commit) and the files it is about to change. */
export type CheckpointCall = Pick<GateCall, 'sessionId' | 'agent' | 'turn' | 'tool' | 'reason' | 'paths'>;

/** What taking one directory's checkpoint before a call came to. */
export type CallCheckpointOutcome =
  { readonly ok: true; readonly checkpoint: CallCheckpoint } | { readonly ok: false; readonly problem: string };

/** What a checkpoint before a call needs of the core. */
export interface CallCheckpointDeps {
  readonly engine: Pick<CheckpointApi, 'checkpoint'>;
  readonly logger: Logger;
  readonly events: Pick<EventHub, 'emit'>;
}

/**
 * The checkpoint of `directory` before a call (the executor's tools and the agents' own, through
 * their hooks); a failure is logged, reported to the UI and returned, never thrown. `consequence`
 * ends the problem's sentence with what the caller does without the checkpoint.
 */
export async function checkpointBeforeCall(
  deps: CallCheckpointDeps,
  directory: string,
  call: CheckpointCall,
  { consequence, logMessage }: { readonly consequence: string; readonly logMessage: string },
): Promise<CallCheckpointOutcome> {
  try {
    const outcome = await deps.engine.checkpoint(directory, {
      reason: call.reason,
      attribution: { sessionId: call.sessionId, turn: call.turn, tool: call.tool, agent: call.agent },
      paths: call.paths.filter((candidate) => isPathInside(candidate, directory)),
    });
    const checkpoint: CallCheckpoint =
      outcome.kind === 'created'
        ? { directory, checkpointId: outcome.checkpoint.id, kind: 'created' }
        : { directory, checkpointId: outcome.head, kind: 'unchanged' };
    return { ok: true, checkpoint };
  } catch (error) {
    const why = isAppError(error) ? error.message : 'an unexpected error (the details are in the log)';
    const problem = `The checkpoint of ${directory} before ${call.tool} failed: ${why}${consequence}`;
    deps.logger.error(logMessage, { directory, session: call.sessionId, turn: call.turn, tool: call.tool, error });
    deps.events.emit('app:problem-reported', { source: 'checkpoints', message: problem, at: new Date().toISOString() });
    return { ok: false, problem };
  }
}

/**
 * The per-turn checkpoint slots: at most one checkpoint per directory per session turn. Only the
 * executor's checkpoint stage calls it, and only for calls that will run — so a blocked, denied or
 * invalid call can neither create a checkpoint nor use up a directory's slot (seed 002). A slot is
 * taken by storing the checkpoint's promise, so a second call of the same turn waits for it before
 * it may change the directory. A failed checkpoint frees its slot (the next call tries again) and
 * never fails the call: it is logged, returned, and reported as `app:problem-reported`.
 */
export class CheckpointGate {
  readonly #slots = new Map<string, { turn: number; slots: Map<string, Promise<Slot>> }>();
  readonly #checkpoints: Pick<CheckpointApi, 'checkpoint'> | undefined;
  readonly #logger: Logger;
  readonly #events: Pick<EventHub, 'emit'>;
  readonly #home: string;

  constructor(options: {
    readonly checkpoints?: Pick<CheckpointApi, 'checkpoint'>;
    readonly logger: Logger;
    readonly events: Pick<EventHub, 'emit'>;
    readonly home?: string;
  }) {
    this.#checkpoints = options.checkpoints;
    this.#logger = options.logger;
    this.#events = options.events;
    this.#home = path.resolve(options.home ?? os.homedir());
  }

  /** The file-system root and the home folder itself are never checkpointed (design §4). */
  #isRefused(directory: string): boolean {
    const resolved = path.resolve(directory);
    return resolved === this.#home || path.parse(resolved).root === resolved;
  }

  /** Takes, or waits for, the turn's checkpoint of every directory the call may change. */
  async before(call: GateCall): Promise<GateResult> {
    const checkpoints: CallCheckpoint[] = [];
    const touched: TouchedDirectory[] = [];
    const problems: string[] = [];
    for (const directory of call.directories) {
      if (this.#isRefused(directory) || this.#checkpoints === undefined) {
        touched.push({ directory, ...scopeIn(call, directory) });
        continue;
      }
      const slots = this.#turnSlots(call.sessionId, call.turn);
      for (;;) {
        const existing = slots.get(directory);
        if (existing !== undefined) {
          const slot = await existing;
          if (!slot.ok) {
            // Its taker reported the failure; this call tries again for itself.
            if (slots.get(directory) === existing) slots.delete(directory);
            continue;
          }
          touched.push({
            directory,
            ...scopeIn(call, directory),
            checkpointId: slot.checkpoint.checkpointId,
          });
          break;
        }
        const taking = this.#take(call, directory);
        slots.set(directory, taking);
        const slot = await taking;
        if (slot.ok) {
          checkpoints.push(slot.checkpoint);
          touched.push({
            directory,
            ...scopeIn(call, directory),
            checkpointId: slot.checkpoint.checkpointId,
          });
        } else {
          if (slots.get(directory) === taking) slots.delete(directory);
          problems.push(slot.problem);
          touched.push({ directory, ...scopeIn(call, directory) });
        }
        break;
      }
    }
    return { checkpoints, touched, problems };
  }

  /** Forgets a session's slots (it closed). */
  forget(sessionId: string): void {
    this.#slots.delete(sessionId);
  }

  #turnSlots(sessionId: string, turn: number): Map<string, Promise<Slot>> {
    const current = this.#slots.get(sessionId);
    if (current !== undefined && current.turn === turn) return current.slots;
    const fresh = { turn, slots: new Map<string, Promise<Slot>>() };
    if (current === undefined || turn > current.turn) this.#slots.set(sessionId, fresh);
    return fresh.slots;
  }

  async #take(call: GateCall, directory: string): Promise<Slot> {
    const checkpoints = this.#checkpoints;
    if (checkpoints === undefined) return { ok: false, problem: 'checkpoints are not available' };
    return checkpointBeforeCall({ engine: checkpoints, logger: this.#logger, events: this.#events }, directory, call, {
      consequence: ' The call ran without it, so its changes there cannot be undone.',
      logMessage: 'checkpoint failed; the tool call runs without it',
    });
  }
}
