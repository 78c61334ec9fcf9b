import type { PolicySubject } from '../policy';
import type { WorkspaceContext } from '../workspace';
import { pathKey } from '../lib';
import type { CoverageLimits } from './undo-coverage';

/** One key a tool call needs while it runs: a path it reads or writes, or a session's terminal. */
export interface LockRequest {
  readonly key: string;
  readonly mode: 'read' | 'write';
}

/** The session a call runs in, as adapters see it. */
export interface ExecutionSession {
  readonly id: string;
  readonly agent: string;
  readonly roots: readonly string[];
  readonly cwd?: string;
  readonly turn: number;
  /** Where the session's file tools may work (roots, cwd, home, Vigil's own folder protected). */
  readonly workspace: WorkspaceContext;
  /** What the checkpoint engine stores (its size cap): what a call changes beyond it cannot be undone. */
  readonly checkpointLimits: CoverageLimits;
}

/** What an adapter's `run` receives. */
export interface RunContext {
  /** Aborted when the core shuts down: long commands stop. */
  readonly signal: AbortSignal;
}

/** A validated, confined call, ready for the policy, the checkpoint stage and execution. */
export interface PreparedCall {
  /** One line for the UI, the log and the approval prompt: the path, the command. */
  readonly summary: string;
  readonly subject: PolicySubject;
  /** What to checkpoint before it runs, when it changes files; undefined for reads and safe commands. */
  readonly checkpoint?: {
    /** Workspace roots it may change (the innermost root containing each path). */
    readonly directories: readonly string[];
    /** Files and folders it is about to change (absolute). */
    readonly paths: readonly string[];
    /** It may change anything in the directories (a command whose targets are not all known). */
    readonly isWholeDirectory?: boolean;
    /** The commit subject, in the seed's words (`before write_file`, `before terminal: rm -rf build`). */
    readonly reason: string;
    /** What the checkpoint does not cover for this call (excluded files it changes or may change): said with the checkpoint, never hidden. */
    readonly notCovered?: readonly string[];
  };
  /** Keys held while it runs: paths read or written, the session's terminal. */
  readonly locks: readonly LockRequest[];
  /** The terminal command's working directory (for the approval prompt). */
  readonly cwd?: string;
  /** Files it writes, reported afterwards to the checkpoint engine (its dirty set) and the write ledger (as the session's). */
  readonly written: readonly string[];
  /**
   * Files and folders it may change without naming each file (a terminal command): they are
   * walked before and after it runs (under its locks), and every file whose version differs is
   * recorded as the session's change.
   */
  readonly observe?: { readonly scope: readonly string[] };
  /** The text its one written file would hold afterwards (for a person comparing it with another session's change); reads the disk at most. */
  proposed?(): Promise<string | undefined>;
  /** Runs the tool: resolves to its output; rejects with an AppError for a tool error. */
  run(context: RunContext): Promise<unknown>;
}

/** One tool, as the executor drives it. `prepare` must not change anything on disk. */
export interface ToolAdapter {
  readonly name: string;
  /**
   * Turns validated arguments into a prepared call: resolves and confines paths (rejecting with
   * `outside_workspace` / `forbidden_path` / `invalid_request`), parses commands, and says what
   * the call would change. It reads the disk at most.
   */
  prepare(args: unknown, session: ExecutionSession): Promise<PreparedCall>;
}

/** The lock key of a path. */
export function pathLockKey(absolute: string): string {
  return `path:${pathKey(absolute)}`;
}

/**
 * The lock key of a whole workspace root. Calls that change named paths in it share it (read);
 * a command that may change anything in it holds it alone (write), so they never run together.
 */
export function rootLockKey(root: string): string {
  return `root:${pathKey(root)}`;
}
