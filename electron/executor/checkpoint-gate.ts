import os from 'node:os';
import path from 'node:path';
import type { CallCheckpoint } from '../../shared/contract/sessions-contract';
import { isAppError } from '../../shared/errors';
import type { CheckpointApi } from '../checkpoints';
import type { EventHub } from '../lib';
import type { Logger } from '../logging';
import { isPathInside } from '../lib';

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
  /** Checkpoints that failed; the caller holds the call for a person (or lets it run, if config.json says so). */
  readonly problems: readonly string[];
}

/** How one call takes its checkpoints. */
export interface GateOptions {
  /**
   * A checkpoint of the turn this gate's slots do not hold, by directory: one an earlier event of an
   * agent's hooks took, perhaps in another process (the session's log holds it).
   */
  readonly heldElsewhere?: (directory: string) => string | undefined;
  /** Checkpoint before this call even when the turn has one: a command an agent runs itself, whose effects Vigil only observes. */
  readonly isEveryCall?: boolean;
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

/** The paths of a call inside a directory, relative and `/`-separated; undefined when it may change anything there. */
export function pathsIn(
  directory: string,
  paths: readonly string[] | undefined,
): { readonly paths?: readonly string[] } {
  if (paths === undefined) return {};
  const inside = paths
    .filter((candidate) => isPathInside(candidate, directory))
    .map((candidate) => path.relative(directory, candidate).split(path.sep).join('/'));
  return inside.includes('') || inside.length === 0 ? {} : { paths: [...new Set(inside)] };
}

/** The paths of `call` inside `directory`, relative; undefined when it may change anything there. */
function scopeIn(call: GateCall, directory: string): { readonly paths?: readonly string[] } {
  return call.isWholeDirectory === true ? {} : pathsIn(directory, call.paths);
}

/**
 * The checkpoint a turn already holds for a directory, from the calls of the turn: on record in
 * the session's log, or waiting for their results (an agent's own calls, perhaps decided by another
 * process). What a gate's slots do not hold (`GateOptions.heldElsewhere`).
 */
export function turnCheckpointOf(
  calls: Iterable<{ readonly turn: number; readonly touched: readonly TouchedDirectory[] }>,
  turn: number,
  directory: string,
): string | undefined {
  for (const call of calls) {
    if (call.turn !== turn) continue;
    const found = call.touched.find(
      (item) => item.directory === directory && item.checkpointId !== undefined,
    )?.checkpointId;
    if (found !== undefined) return found;
  }
  return undefined;
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
      startsTurn: true,
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
 * checkpoint stage calls it — the executor's, and the agents' hooks' — and only for calls that will run — so a blocked, denied or
 * invalid call can neither create a checkpoint nor use up a directory's slot (seed 002). A slot is
 * taken by storing the checkpoint's promise, so a second call of the same turn waits for it before
 * it may change the directory. A failed checkpoint frees its slot (the next call tries again) and
 * is logged, returned, and reported as `app:problem-reported`; what the call does without it is its
 * caller's to decide (held for a person unless `checkpoints.onFailure` is "allow").
 */
export class CheckpointGate {
  readonly #slots = new Map<string, { turn: number; slots: Map<string, Promise<Slot>> }>();
  readonly #checkpoints: Pick<CheckpointApi, 'checkpoint'> | undefined;
  readonly #logger: Logger;
  readonly #events: Pick<EventHub, 'emit'>;
  readonly #home: string;
  readonly #consequence: string;

  constructor(options: {
    readonly checkpoints?: Pick<CheckpointApi, 'checkpoint'>;
    readonly logger: Logger;
    readonly events: Pick<EventHub, 'emit'>;
    readonly home?: string;
    /** Ends a failed checkpoint's problem with what its caller does without it (default: the call runs anyway). */
    readonly consequence?: string;
  }) {
    this.#checkpoints = options.checkpoints;
    this.#logger = options.logger;
    this.#events = options.events;
    this.#home = path.resolve(options.home ?? os.homedir());
    this.#consequence = options.consequence ?? ' The call ran without it, so its changes there cannot be undone.';
  }

  /** The file-system root and the home folder itself are never checkpointed (design §4). */
  #isRefused(directory: string): boolean {
    const resolved = path.resolve(directory);
    return resolved === this.#home || path.parse(resolved).root === resolved;
  }

  /**
   * The checkpoint stage of one call that will run (the executor's own tools, and an agent's own
   * through its hooks): `before`, then each checkpoint says what it leaves out (`notCovered`), so
   * that it never claims to cover it.
   */
  async stage(
    call: GateCall,
    notCovered: readonly string[] | undefined,
    options: GateOptions = {},
  ): Promise<GateResult> {
    const gated = await this.before(call, options);
    if (notCovered === undefined || notCovered.length === 0) return gated;
    return { ...gated, checkpoints: gated.checkpoints.map((taken) => ({ ...taken, notCovered: [...notCovered] })) };
  }

  /** Takes, or waits for, the turn's checkpoint of every directory the call may change. */
  async before(call: GateCall, options: GateOptions = {}): Promise<GateResult> {
    const checkpoints: CallCheckpoint[] = [];
    const touched: TouchedDirectory[] = [];
    const problems: string[] = [];
    for (const directory of call.directories) {
      const scope = scopeIn(call, directory);
      const held = options.isEveryCall === true ? undefined : options.heldElsewhere?.(directory);
      if (this.#isRefused(directory) || this.#checkpoints === undefined) {
        touched.push({ directory, ...scope });
        continue;
      }
      if (held !== undefined) {
        touched.push({ directory, ...scope, checkpointId: held });
        continue;
      }
      const slot = await this.#slotFor(call, directory, options.isEveryCall === true);
      if (slot.kind === 'found') touched.push({ directory, ...scope, checkpointId: slot.checkpointId });
      else if (slot.outcome.ok) {
        checkpoints.push(slot.outcome.checkpoint);
        touched.push({ directory, ...scope, checkpointId: slot.outcome.checkpoint.checkpointId });
      } else {
        problems.push(slot.outcome.problem);
        touched.push({ directory, ...scope });
      }
    }
    return { checkpoints, touched, problems };
  }

  /**
   * The turn's checkpoint of one directory: the one a call of the turn took (waited for), or one
   * taken now — always, for a call checkpointed before every run. A failed one frees its slot.
   */
  async #slotFor(
    call: GateCall,
    directory: string,
    isEveryCall: boolean,
  ): Promise<{ kind: 'found'; checkpointId?: string } | { kind: 'taken'; outcome: Slot }> {
    const slots = this.#turnSlots(call.sessionId, call.turn);
    for (;;) {
      const existing = isEveryCall ? undefined : slots.get(directory);
      if (existing !== undefined) {
        const slot = await existing;
        if (slot.ok) return { kind: 'found', checkpointId: slot.checkpoint.checkpointId };
        // Its taker reported the failure; this call tries again for itself.
        if (slots.get(directory) === existing) slots.delete(directory);
        continue;
      }
      const taking = this.#take(call, directory);
      slots.set(directory, taking);
      const outcome = await taking;
      if (!outcome.ok && slots.get(directory) === taking) slots.delete(directory);
      return { kind: 'taken', outcome };
    }
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
      consequence: this.#consequence,
      logMessage: 'checkpoint failed before a tool call',
    });
  }
}
