import path from 'node:path';
import { createPatch } from 'diff';
import type { ApprovalCollision } from '../../shared/contract/approvals-contract';
import type { SessionSummary } from '../../shared/contract/sessions-contract';
import type { CallCollision } from '../../shared/contract/call-collision-contract';
import type { CheckpointApi, LedgerView, StoredTreeEntry, WriteLedger } from '../checkpoints';
import { errnoCode, type FileIdentity, readFileIdentity, readLiveFile } from '../files';
import { isPathInside } from '../lib';
import type { Logger } from '../logging';
import type { SessionState } from '../sessions';
import { findCollision, findCollisions, labelAmong, type Collision, type CollisionMode } from './collision-rule';

/** What the guard is built from: the write ledger, the sessions, the settings in force, the checkpoint store (for the other session's earlier version). */
export interface CollisionGuardOptions {
  readonly ledger: Pick<WriteLedger, 'view'>;
  readonly sessions: {
    list(): readonly SessionSummary[];
    stateOf(sessionId: string): SessionState;
  };
  /** `sessions.collisions` and `sessions.collisionMinutes` (in ms) in force. */
  readonly settings: () => { readonly collisions: CollisionMode; readonly collisionMs: number };
  readonly store?: Pick<CheckpointApi, 'resolve' | 'readTree' | 'readBlob'>;
  readonly logger: Logger;
}

/** A collision found, with what to do about it. */
export interface FoundCollision {
  readonly collision: Collision;
  readonly mode: Exclude<CollisionMode, 'off'>;
  /** The file as people read it (relative to its workspace root). */
  readonly displayPath: string;
}

/** The collision guard: finds a call's collision, and describes it with both changes for a person. */
export interface CollisionGuard {
  /** The collision of a call that would change `paths` in `sessionId` (nothing when `sessions.collisions` is "off"). */
  check(sessionId: string, paths: readonly string[], roots: readonly string[]): Promise<FoundCollision | undefined>;
  /** The approval's collision: the line, and both changes as diffs (`proposed`: the text the call would write). */
  describe(found: FoundCollision, proposed: string | undefined): Promise<ApprovalCollision>;
  /** A session's name for people (`claude-code #2`), numbered among the sessions as the rule numbers them. */
  labelOf(sessionId: string): string;
  /** The write ledger before a terminal command runs (undefined when `sessions.collisions` is "off"). */
  ledgerBefore(): Promise<LedgerView | undefined>;
  /**
   * After a terminal command ran: the files it changed whose version before it (`before`: its
   * identity then) was another live session's recent change, by the ledger as it was before it ran.
   */
  afterCommand(
    sessionId: string,
    ledger: LedgerView,
    changed: readonly CommandChange[],
    roots: readonly string[],
  ): CallCollision[];
}

/** A file a command changed, with its identity before the command (undefined: it did not exist). */
export interface CommandChange {
  readonly path: string;
  readonly before: FileIdentity | undefined;
}

/** Texts larger than this are not diffed on a card. */
const maxDiffBytes = 512 * 1024;
/** Lines of a diff shown at most. */
const maxDiffLines = 300;

/** The file as people read it: relative to the innermost root holding it, else absolute. */
export function displayPathOf(absolute: string, roots: readonly string[]): string {
  const root = roots
    .filter((candidate) => isPathInside(absolute, candidate))
    .sort((left, right) => right.length - left.length)[0];
  return root === undefined ? absolute : path.relative(root, absolute).split(path.sep).join('/');
}

/** A unified diff, cut short when long; undefined when either side is unknown. */
function diffOf(displayPath: string, before: string | undefined, after: string | undefined): string | undefined {
  if (before === undefined || after === undefined) return undefined;
  const diff = createPatch(displayPath, before, after, undefined, undefined, { context: 3, timeout: 500 });
  if (diff === undefined) return undefined;
  const lines = diff.split('\n');
  return lines.length <= maxDiffLines
    ? diff
    : `${lines.slice(0, maxDiffLines).join('\n')}\n… (${lines.length - maxDiffLines} more diff lines)`;
}

/**
 * The file's text now ('' when absent), or undefined when it is too large to diff, unreadable, a
 * symlink (not followed) or not a regular file: a FIFO an agent put there is never waited on.
 */
async function currentText(file: string): Promise<string | undefined> {
  try {
    const read = await readLiveFile(file, { maxBytes: maxDiffBytes });
    return read.kind === 'read' ? read.content.toString('utf8') : undefined;
  } catch (error) {
    const code = errnoCode(error);
    return code === 'ENOENT' || code === 'ENOTDIR' ? '' : undefined;
  }
}

/** The checkpoint a session's turn took of the folder holding `file` (before that turn's first change there). */
function turnCheckpointOf(state: SessionState, turn: number, file: string): { dir: string; id: string } | undefined {
  for (const call of state.calls.values()) {
    if (call.record.turn !== turn) continue;
    for (const touched of call.record.touched)
      if (touched.checkpointId !== undefined && isPathInside(file, touched.directory))
        return { dir: touched.directory, id: touched.checkpointId };
  }
  return undefined;
}

/** When a session last read each file with read_file (ms since the epoch), from its loaded log. */
function lastReads(state: SessionState | undefined): ReadonlyMap<string, number> {
  const reads = new Map<string, number>();
  for (const call of state?.calls.values() ?? []) {
    const result = call.result;
    if (call.record.name !== 'read_file' || result === undefined || !result.result.ok) continue;
    const value = result.result.value as { readonly path?: unknown } | undefined;
    if (typeof value?.path !== 'string') continue;
    const at = Date.parse(result.at);
    if (at > (reads.get(value.path) ?? -Infinity)) reads.set(value.path, at);
  }
  return reads;
}

/** A command's collisions (see `CollisionGuard.afterCommand`), by the ledger as it was before the command ran. */
function commandCollisions(
  options: CollisionGuardOptions,
  lastRead: ReadonlyMap<string, number>,
  command: {
    readonly sessionId: string;
    readonly ledger: LedgerView;
    readonly changed: readonly CommandChange[];
    readonly roots: readonly string[];
  },
): CallCollision[] {
  const collisions = findCollisions({
    sessionId: command.sessionId,
    writers: command.changed.map((change) => [change.path, command.ledger(change.path, change.before)] as const),
    sessions: options.sessions.list(),
    now: Date.now(),
    windowMs: options.settings().collisionMs,
    lastRead,
  });
  return collisions.map((collision) => ({
    path: collision.path,
    displayPath: displayPathOf(collision.path, command.roots),
    otherSessionId: collision.otherSessionId,
    otherLabel: collision.otherLabel,
    changedAt: new Date(collision.changedAt).toISOString(),
  }));
}

/** A session's loaded state, or undefined when it is not loaded. */
function loadedState(options: CollisionGuardOptions, sessionId: string): SessionState | undefined {
  try {
    return options.sessions.stateOf(sessionId);
  } catch {
    return undefined;
  }
}

/** The guard over the ledger, the sessions and the settings in force. */
export function createCollisionGuard(options: CollisionGuardOptions): CollisionGuard {
  const stateOf = (sessionId: string): SessionState | undefined => loadedState(options, sessionId);

  /** The other session's version of the file before its turn changed it, from that turn's checkpoint ('' when it did not exist). */
  async function theirBefore(collision: Collision): Promise<string | undefined> {
    const { store } = options;
    if (store === undefined || collision.otherTurn === undefined) return undefined;
    const state = stateOf(collision.otherSessionId);
    const held = state && turnCheckpointOf(state, collision.otherTurn, collision.path);
    if (held === undefined) return undefined;
    const entry = await store.resolve(held.dir, held.id);
    let tree: string = entry.tree;
    const parts = path.relative(held.dir, collision.path).split(path.sep);
    for (const [index, part] of parts.entries()) {
      const items: readonly StoredTreeEntry[] = await store.readTree(tree);
      const found = items.find((item) => item.name === part);
      if (found === undefined) return '';
      if (index === parts.length - 1) {
        if (found.type !== 'blob') return undefined;
        const bytes = await store.readBlob(found.oid);
        return bytes.byteLength > maxDiffBytes ? undefined : Buffer.from(bytes).toString('utf8');
      }
      if (found.type !== 'tree') return '';
      tree = found.oid;
    }
    return undefined;
  }

  return {
    async check(sessionId, paths, roots) {
      const { collisions, collisionMs } = options.settings();
      if (collisions === 'off' || paths.length === 0) return undefined;
      const view = await options.ledger.view();
      const writers = await Promise.all(
        paths.map(async (file) => [file, view(file, await readFileIdentity(file).catch(() => undefined))] as const),
      );
      const collision = findCollision({
        sessionId,
        writers,
        sessions: options.sessions.list(),
        now: Date.now(),
        windowMs: collisionMs,
        lastRead: lastReads(stateOf(sessionId)),
      });
      return collision === undefined
        ? undefined
        : { collision, mode: collisions, displayPath: displayPathOf(collision.path, roots) };
    },
    labelOf: (sessionId) => labelAmong(options.sessions.list(), sessionId),
    async ledgerBefore() {
      return options.settings().collisions === 'off' ? undefined : options.ledger.view();
    },
    afterCommand: (sessionId, ledger, changed, roots) =>
      commandCollisions(options, lastReads(stateOf(sessionId)), { sessionId, ledger, changed, roots }),
    async describe(found, proposed) {
      const { collision, displayPath } = found;
      const [before, now] = await Promise.all([
        theirBefore(collision).catch((error: unknown) => {
          options.logger.warn('could not read the earlier version of a colliding file', {
            file: collision.path,
            error,
          });
          return undefined;
        }),
        currentText(collision.path),
      ]);
      const theirs = diffOf(displayPath, before, now);
      const mine = diffOf(displayPath, now, proposed);
      return {
        path: collision.path,
        displayPath,
        label: collision.label,
        otherSessionId: collision.otherSessionId,
        otherLabel: collision.otherLabel,
        changedAt: new Date(collision.changedAt).toISOString(),
        ...(theirs === undefined ? {} : { theirs }),
        ...(mine === undefined ? {} : { proposed: mine }),
      };
    },
  };
}
